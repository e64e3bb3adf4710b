import { buildAssetFeatures, type AssetFeatures, type ObservedTechnicals, type ObservedValue } from "../../domain/signals/asset-features.js";
import { computeTechnicalSeries, technicalValuesAt, type TechnicalSeries } from "../../domain/indicators/technical-series.js";
import { pctChangeOverDays } from "../../domain/signals/derivations.js";
import type { CalendarEvent } from "../../domain/signals/macro-calendar.js";
import type { Candle, CandleInterval, SignalReading } from "../../domain/signals/reading.js";
import { readingAt, readingsBetween, type SignalSeries } from "../../domain/signals/signal-series.js";
import { ASSETS, type Asset, type SignalKey } from "../../domain/signals/signal-keys.js";
import { dailyMacroSeries, macroPointAt, type DailyMacroSeries, type MacroSeriesKey, type MacroSeriesPoint } from "../../domain/signals/macro-series.js";
import { NO_NETWORK_FIGURES, type NetworkFigures } from "../../domain/signals/network-figures.js";
import type { FeedSpan, MarketFeed } from "../market-feed.js";
import type { ColumnTable } from "./csv-table.js";
import { loadReplayDataset, type ReplayDataset } from "./load-dataset.js";
import { btcDailyClose, buildReplaySignals } from "./replay-signals.js";
import { lastIndexAtOrBefore } from "../../domain/signals/time-search.js";

const HOUR = 3_600_000;
const DAY = 86_400_000;

interface ValueSeries {
  readonly t: Float64Array;
  readonly v: Float64Array;
}

const MACRO_COLUMNS: Record<MacroSeriesKey, { table: keyof ReplayDataset["tables"]; column: string }> = {
  US10Y: { table: "us10y", column: "yield_pct" },
  DXY: { table: "dxy", column: "close" },
  GOLD: { table: "gold", column: "close_usd_oz" },
  NASDAQ: { table: "ndx", column: "close" },
  VIX: { table: "vix", column: "value" },
  FED_FUNDS: { table: "fed_funds", column: "rate_pct" },
};

function column(table: ColumnTable, name: string): Float64Array {
  const c = table.columns[name];
  if (!c) throw new Error(`${table.file} has no column ${name}`);
  return c;
}

function observedAt(series: ValueSeries, at: number): ObservedValue | null {
  const i = lastIndexAtOrBefore(series.t, at);
  if (i < 0) return null;
  const value = series.v[i] as number;
  return Number.isNaN(value) ? null : { value, observedAt: series.t[i] as number };
}

/**
 * The default market feed: the real history bundled in market-data/, read "as of" replay time.
 * Everything derivable is computed once at load in streaming passes and held in typed arrays, so
 * each read is a binary search. Past the end of a file nothing is extended: readings just age.
 */
export class ReplayMarketFeed implements MarketFeed {
  readonly mode = "replay" as const;

  private constructor(
    private readonly ds: ReplayDataset,
    private readonly signals: ReadonlyMap<SignalKey, SignalSeries>,
    private readonly tech: Readonly<Record<Asset, Record<"1h" | "4h", TechnicalSeries>>>,
    private readonly funding: Readonly<Partial<Record<Asset, ValueSeries>>>,
    private readonly solTvlTrend: ValueSeries,
    private readonly macro: Readonly<Record<MacroSeriesKey, DailyMacroSeries>>,
  ) {}

  static async load(dir: string): Promise<ReplayMarketFeed> {
    return ReplayMarketFeed.fromDataset(await loadReplayDataset(dir));
  }

  static fromDataset(ds: ReplayDataset): ReplayMarketFeed {
    const tech = Object.fromEntries(
      ASSETS.map((a) => [a, { "1h": computeTechnicalSeries(ds.candles[a]["1h"]), "4h": computeTechnicalSeries(ds.candles[a]["4h"]) }]),
    ) as Record<Asset, Record<"1h" | "4h", TechnicalSeries>>;
    const t = ds.tables;
    // Funding is stamped at its settlement time, when it becomes known; stored in % per 8 h.
    const fundingOf = (table: ColumnTable): ValueSeries => ({ t: table.time, v: column(table, "funding_rate").map((r) => r * 100) });
    const tvl = column(t.sol_tvl, "tvl_usd");
    const btcClose = btcDailyClose(ds.candles.BTC["1d"]);
    const macro = Object.fromEntries(
      Object.entries(MACRO_COLUMNS).map(([key, { table, column: name }]) => {
        const tbl = t[table];
        return [key, dailyMacroSeries(tbl.time, column(tbl, name), btcClose)];
      }),
    ) as Record<MacroSeriesKey, DailyMacroSeries>;
    return new ReplayMarketFeed(
      ds,
      buildReplaySignals(ds, tech.BTC["1h"]),
      tech,
      { BTC: fundingOf(t.funding_btc), ETH: fundingOf(t.funding_eth), SOL: fundingOf(t.funding_sol) },
      { t: t.sol_tvl.time.map((x) => x + DAY), v: pctChangeOverDays(t.sol_tvl.time, tvl, 7) },
      macro,
    );
  }

  latestReadings(at: number): ReadonlyMap<SignalKey, SignalReading> {
    const out = new Map<SignalKey, SignalReading>();
    for (const [key, s] of this.signals) {
      const r = readingAt(s, at);
      if (r) out.set(key, r);
    }
    return out;
  }

  readingsBetween(key: SignalKey, from: number, to: number): readonly SignalReading[] {
    const s = this.signals.get(key);
    return s ? readingsBetween(s, from, to) : [];
  }

  candles(asset: Asset, interval: CandleInterval, at: number, limit: number): readonly Candle[] {
    return this.ds.candles[asset][interval].closed(at, limit);
  }

  spotPrice(asset: Asset, at: number): ObservedValue | null {
    const t = this.technicals(asset, "1h", at);
    // The last close is the spot only while no bar after it is missing: inside one of the
    // history's exchange outages there is no price now, not the one from before the gap.
    if (t === null || at - t.observedAt > HOUR) return null;
    return { value: t.values.close, observedAt: t.observedAt };
  }

  technicals(asset: Asset, interval: "1h" | "4h", at: number): ObservedTechnicals | null {
    const candles = this.ds.candles[asset][interval];
    const i = candles.lastClosedIndex(at);
    if (i < 0) return null;
    const series = this.tech[asset][interval];
    return { values: technicalValuesAt(series, candles.t[i] as number, i), observedAt: series.closeTime[i] as number };
  }

  assetFeatures(asset: Asset, at: number): AssetFeatures {
    const btc = this.technicals("BTC", "1h", at);
    const funding = this.funding[asset];
    return buildAssetFeatures(
      {
        asset,
        tech1h: this.technicals(asset, "1h", at),
        tech4h: this.technicals(asset, "4h", at),
        funding: funding ? observedAt(funding, at) : null,
        btcPrice: btc ? { value: btc.values.close, observedAt: btc.observedAt } : null,
        tvlTrend: asset === "SOL" ? observedAt(this.solTvlTrend, at) : null,
      },
      at,
    );
  }

  macroSeries(key: MacroSeriesKey, at: number): MacroSeriesPoint | null {
    return macroPointAt(key, this.macro[key], at);
  }

  networkFigures(_at: number): NetworkFigures {
    // The bundled history has no Solana, Bittensor or AI-sector series: nothing to read, nothing invented.
    return NO_NETWORK_FIGURES;
  }

  calendarEvents(): readonly CalendarEvent[] {
    return this.ds.calendar;
  }

  span(): FeedSpan {
    const lastBarClose = Object.fromEntries(ASSETS.map((a) => [a, this.ds.candles[a]["1h"].span()?.end ?? null]));
    return { lastBarClose: lastBarClose as Record<Asset, number | null> };
  }
}
