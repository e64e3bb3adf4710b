import { signalSource } from "../../domain/signals/catalogue.js";
import type { CandleSeries } from "../../domain/signals/candle-series.js";
import {
  changeOverDays,
  hashRibbon,
  mvrvZScore,
  nupl,
  rollingReturnCorrelation,
  trailingSum,
} from "../../domain/signals/derivations.js";
import { SeriesBuilder, type SignalSeries } from "../../domain/signals/signal-series.js";
import type { SignalKey } from "../../domain/signals/signal-keys.js";
import type { TechnicalSeries } from "../../domain/indicators/technical-series.js";
import type { ColumnTable } from "./csv-table.js";
import type { ReplayDataset } from "./load-dataset.js";

const DAY = 86_400_000;

/**
 * When a daily row becomes known. A daily close (or a day's on-chain total) is only final at the
 * end of its UTC day, so it is observable from the next 00:00 UTC — the replay never looks ahead.
 * alternative.me stamps its index at 00:00 UTC of the day it is published for, so it is known then.
 */
const endOfDay = (t: number) => t + DAY;
const atStamp = (t: number) => t;

function series(key: SignalKey, time: Float64Array, values: Float64Array, observedAt: (t: number) => number): SignalSeries {
  const b = new SeriesBuilder();
  for (let i = 0; i < time.length; i++) b.push(observedAt(time[i] as number), values[i] as number);
  const source = signalSource(key, "replay");
  if (!source) throw new Error(`${key} has no replay source in the catalogue`);
  return b.build(key, source.provider);
}

function col(table: ColumnTable, name: string): Float64Array {
  const c = table.columns[name];
  if (!c) throw new Error(`${table.file} has no column ${name}`);
  return c;
}

/** BTC's close of a UTC day, from the daily aggregate of the hourly candles; NaN if absent. */
export function btcDailyClose(daily: CandleSeries): (dayStart: number) => number {
  const byDay = new Map<number, number>();
  for (let i = 0; i < daily.length; i++) byDay.set(daily.t[i] as number, daily.c[i] as number);
  return (dayStart) => byDay.get(dayStart) ?? Number.NaN;
}

function technical(key: SignalKey, tech: TechnicalSeries, field: keyof TechnicalSeries["fields"]): SignalSeries {
  return series(key, tech.closeTime, tech.fields[field], atStamp);
}

/** The 17 signals with a replay source (DECISIONS 7) as time series of their readings. */
export function buildReplaySignals(ds: ReplayDataset, btc1h: TechnicalSeries): Map<SignalKey, SignalSeries> {
  const t = ds.tables;
  const btcClose = btcDailyClose(ds.candles.BTC["1d"]);
  const funding = t.funding_btc;
  const all: SignalSeries[] = [
    technical("BTC_RSI", btc1h, "rsi14"),
    technical("BTC_EMA200_DISTANCE", btc1h, "ema200DistancePct"),
    technical("BTC_MACD_HIST", btc1h, "macdHistogram"),
    technical("BTC_REALIZED_VOL", btc1h, "realizedVolPct"),
    technical("BTC_VOLUME_RATIO", btc1h, "volumeRatio"),
    series("BTC_FUNDING_RATE", funding.time, col(funding, "funding_rate").map((r) => r * 100), atStamp),
    series("FEAR_GREED_INDEX", t.fear_greed.time, col(t.fear_greed, "value"), atStamp),
    series("US10Y", t.us10y.time, col(t.us10y, "yield_pct"), endOfDay),
    series("DXY", t.dxy.time, col(t.dxy, "close"), endOfDay),
    series("GOLD", t.gold.time, col(t.gold, "close_usd_oz"), endOfDay),
    series("BTC_NASDAQ_CORR", t.ndx.time, rollingReturnCorrelation(t.ndx.time, col(t.ndx, "close"), btcClose), endOfDay),
    series(
      "MVRV_ZSCORE",
      t.btc_onchain.time,
      mvrvZScore(col(t.btc_onchain, "market_cap_usd"), col(t.btc_onchain, "mvrv_cur")),
      endOfDay,
    ),
    series("NUPL", t.btc_onchain.time, nupl(col(t.btc_onchain, "mvrv_cur")), endOfDay),
    series("HASH_RIBBON", t.hashrate.time, hashRibbon(t.hashrate.time, col(t.hashrate, "hashrate_th_s")), endOfDay),
    series("DVOL", t.dvol.time, col(t.dvol, "dvol_close"), endOfDay),
    series(
      "STABLECOIN_MINT",
      t.stablecoins.time,
      changeOverDays(t.stablecoins.time, col(t.stablecoins, "total_supply_usd"), 7, 1e-6),
      endOfDay,
    ),
    series("ENTITY_PRESSURE", t.etf_flow.time, trailingSum(t.etf_flow.time, col(t.etf_flow, "net_flow_usd_mn"), 7), endOfDay),
  ];
  return new Map(all.map((s) => [s.key, s]));
}
