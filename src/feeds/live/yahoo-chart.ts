import { z } from "zod";
import type { SignalReading } from "../../domain/signals/reading.js";
import type { Clock } from "../../runtime/clocks/clock.js";
import { getJson } from "./http-json.js";
import type { DailySeriesSink } from "./live-macro-series.js";
import { ProviderError } from "./provider-error.js";
import type { ReadingProvider } from "./reading-provider.js";

export const YAHOO_CHART_URL = "https://query1.finance.yahoo.com";
const DAY = 86_400_000;

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

export interface DailyClose {
  readonly day: number;
  readonly close: number;
}

export type YahooSymbol = "DX-Y.NYB" | "GC=F" | "^NDX";

/**
 * DXY and GOLD from Yahoo Finance's chart API, with the Nasdaq-100's closes. Only completed UTC
 * days are used: the chart's last bar carries the running price of the current session, which is
 * not a close. Each value is stamped at the end of its day, as in replay. The daily closes of
 * DXY, GOLD and NASDAQ also go to `series` (the macro series), only once all three fetches
 * succeeded, so a failed poll changes nothing. BTC_NASDAQ_CORR is derived by the live feed from
 * the Nasdaq-100 and BTC's daily closes (BtcDailyClosesProvider), which no Yahoo poll waits on.
 */
export class YahooChartProvider implements ReadingProvider {
  readonly id = "yahoo";

  constructor(
    private readonly clock: Clock,
    private readonly series: DailySeriesSink,
    private readonly baseUrl = YAHOO_CHART_URL,
    private readonly timeoutMs = 10_000,
  ) {}

  async poll(): Promise<readonly SignalReading[]> {
    const now = this.clock.now();
    const [dxy, gold, ndx] = await Promise.all([this.dailyCloses("DX-Y.NYB", now), this.dailyCloses("GC=F", now), this.dailyCloses("^NDX", now)]);
    const values = (closes: readonly DailyClose[]) => closes.map((c) => ({ day: c.day, value: c.close }));
    this.series.record("DXY", values(dxy));
    this.series.record("GOLD", values(gold));
    this.series.record("NASDAQ", values(ndx));
    const out: SignalReading[] = [];
    const latest = (key: "DXY" | "GOLD", closes: readonly DailyClose[]) => {
      const last = closes[closes.length - 1];
      if (last) out.push({ key, value: last.close, observedAt: last.day + DAY, source: this.id });
    };
    latest("DXY", dxy);
    latest("GOLD", gold);
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
}
