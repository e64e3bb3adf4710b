import { z } from "zod";
import { rollingReturnCorrelation } from "../../domain/signals/derivations.js";
import type { SignalReading } from "../../domain/signals/reading.js";
import type { Clock } from "../../runtime/clocks/clock.js";
import { getJson } from "./http-json.js";
import type { DailySeriesSink } from "./live-macro-series.js";
import { ProviderError } from "./provider-error.js";
import type { ReadingProvider } from "./reading-provider.js";

export const YAHOO_CHART_URL = "https://query1.finance.yahoo.com";
export const BINANCE_SPOT_URL = "https://api.binance.com";
const DAY = 86_400_000;
/** Paired daily returns in the BTC-Nasdaq correlation (as in replay). */
const CORR_WINDOW = 30;
/** Binance daily bars fetched: covers the 3-month Yahoo range with room for weekends. */
const BTC_DAYS = 120;

/** /v8/finance/chart/{symbol}: one result with parallel timestamp and close arrays; `error` set on failure. */
const chartSchema = z.object({
  chart: z.object({
    result: z
      .array(
        z.object({
          timestamp: z.array(z.number().int().positive()),
          indicators: z.object({ quote: z.array(z.object({ close: z.array(z.number().positive().nullable()) })).min(1) }),
        }),
      )
      .nullable(),
    error: z.object({ code: z.string(), description: z.string().nullable().optional() }).nullable(),
  }),
});

/** /api/v3/klines: [openTime, open, high, low, close, volume, closeTime, …], prices as strings. */
const decimal = z.string().regex(/^\d+(\.\d+)?$/).transform(Number);
const klinesSchema = z.array(z.tuple([z.number().int(), decimal, decimal, decimal, decimal], z.unknown()));

export interface DailyClose {
  readonly day: number;
  readonly close: number;
}

export type YahooSymbol = "DX-Y.NYB" | "GC=F" | "^NDX";

/**
 * DXY, GOLD and BTC_NASDAQ_CORR from Yahoo Finance's chart API (^NDX paired with Binance
 * BTC/USDT daily closes). Only completed UTC days are used: the chart's last bar carries the
 * running price of the current session, which is not a close. Each value is stamped at the end
 * of its day, as in replay. The daily closes of DXY, GOLD, NASDAQ and BTC also go to `series`
 * (the macro series), only once all four fetches succeeded, so a failed poll changes nothing.
 */
export class YahooChartProvider implements ReadingProvider {
  readonly id = "yahoo";

  constructor(
    private readonly clock: Clock,
    private readonly series: DailySeriesSink,
    private readonly baseUrl = YAHOO_CHART_URL,
    private readonly binanceUrl = BINANCE_SPOT_URL,
    private readonly timeoutMs = 10_000,
  ) {}

  async poll(): Promise<readonly SignalReading[]> {
    const now = this.clock.now();
    const [dxy, gold, ndx, btc] = await Promise.all([
      this.dailyCloses("DX-Y.NYB", now),
      this.dailyCloses("GC=F", now),
      this.dailyCloses("^NDX", now),
      this.btcDailyCloses(now),
    ]);
    const values = (closes: readonly DailyClose[]) => closes.map((c) => ({ day: c.day, value: c.close }));
    this.series.record("DXY", values(dxy));
    this.series.record("GOLD", values(gold));
    this.series.record("NASDAQ", values(ndx));
    this.series.record("BTC", values(btc));
    const out: SignalReading[] = [];
    const latest = (key: "DXY" | "GOLD", closes: readonly DailyClose[]) => {
      const last = closes[closes.length - 1];
      if (last) out.push({ key, value: last.close, observedAt: last.day + DAY, source: this.id });
    };
    latest("DXY", dxy);
    latest("GOLD", gold);
    const btcByDay = new Map(btc.map((b) => [b.day, b.close]));
    const corr = rollingReturnCorrelation(
      Float64Array.from(ndx, (p) => p.day),
      Float64Array.from(ndx, (p) => p.close),
      (day) => btcByDay.get(day) ?? Number.NaN,
      CORR_WINDOW,
    );
    const lastNdx = ndx[ndx.length - 1];
    const lastCorr = corr[corr.length - 1];
    if (lastNdx && lastCorr !== undefined && !Number.isNaN(lastCorr)) {
      out.push({ key: "BTC_NASDAQ_CORR", value: lastCorr, observedAt: lastNdx.day + DAY, source: this.id });
    }
    return out;
  }

  /** Completed daily closes of one symbol over the last 3 months, oldest first, one per UTC day. */
  async dailyCloses(symbol: YahooSymbol, now: number): Promise<DailyClose[]> {
    const url = `${this.baseUrl}/v8/finance/chart/${encodeURIComponent(symbol)}?range=3mo&interval=1d`;
    const body = await getJson(this.id, url, chartSchema, { timeoutMs: this.timeoutMs, headers: { "user-agent": "Mozilla/5.0" } });
    const result = body.chart.result?.[0];
    if (body.chart.error || !result) {
      throw new ProviderError(this.id, "malformed", `chart error for ${symbol}: ${body.chart.error?.code ?? "no result"}`);
    }
    const closes = result.indicators.quote[0]?.close ?? [];
    if (closes.length !== result.timestamp.length) throw new ProviderError(this.id, "malformed", `${symbol}: timestamp and close lengths differ`);
    const byDay = new Map<number, number>();
    result.timestamp.forEach((ts, i) => {
      const close = closes[i];
      // Bars are stamped at the session open, inside the trading day's UTC date.
      const day = Math.floor((ts * 1000) / DAY) * DAY;
      if (close !== null && close !== undefined && day + DAY <= now) byDay.set(day, close);
    });
    return [...byDay.entries()].sort((a, b) => a[0] - b[0]).map(([day, close]) => ({ day, close }));
  }

  /** Binance BTC/USDT closes of completed UTC days (the bar's open time is the day start). */
  private async btcDailyCloses(now: number): Promise<DailyClose[]> {
    const url = `${this.binanceUrl}/api/v3/klines?symbol=BTCUSDT&interval=1d&limit=${BTC_DAYS}`;
    const rows = await getJson(this.id, url, klinesSchema, { timeoutMs: this.timeoutMs });
    return rows.filter((r) => r[0] % DAY === 0 && r[0] + DAY <= now).map((r) => ({ day: r[0], close: r[4] }));
  }
}
