import type { Candle } from "./reading.js";
import { lastIndexAtOrBefore } from "./time-search.js";

/**
 * OHLCV bars held column-wise (one Float64Array per field) so years of hourly history take
 * ~3.5 MB per asset and "the bars closed by time T" is a binary search, not a scan.
 */
export class CandleSeries {
  constructor(
    readonly intervalMs: number,
    readonly t: Float64Array,
    readonly o: Float64Array,
    readonly h: Float64Array,
    readonly l: Float64Array,
    readonly c: Float64Array,
    readonly v: Float64Array,
  ) {}

  get length(): number {
    return this.t.length;
  }

  at(i: number): Candle {
    return {
      t: this.t[i] as number,
      o: this.o[i] as number,
      h: this.h[i] as number,
      l: this.l[i] as number,
      c: this.c[i] as number,
      v: this.v[i] as number,
    };
  }

  /** Index of the last bar whose close (open + interval) is at or before `at`, or -1. */
  lastClosedIndex(at: number): number {
    return lastIndexAtOrBefore(this.t, at - this.intervalMs);
  }

  /** Up to `limit` bars closed at or before `at`, oldest first (never a bar still forming). */
  closed(at: number, limit: number): Candle[] {
    const last = this.lastClosedIndex(at);
    const out: Candle[] = [];
    for (let i = Math.max(0, last - limit + 1); i <= last; i++) out.push(this.at(i));
    return out;
  }

  /** Open time of the first bar and close time of the last, or null when empty. */
  span(): { readonly first: number; readonly end: number } | null {
    if (this.t.length === 0) return null;
    return { first: this.t[0] as number, end: (this.t[this.t.length - 1] as number) + this.intervalMs };
  }

  static fromCandles(intervalMs: number, bars: readonly Candle[]): CandleSeries {
    const col = (f: (b: Candle) => number) => Float64Array.from(bars, f);
    return new CandleSeries(
      intervalMs,
      col((b) => b.t),
      col((b) => b.o),
      col((b) => b.h),
      col((b) => b.l),
      col((b) => b.c),
      col((b) => b.v),
    );
  }
}
