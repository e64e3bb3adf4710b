import type { ObservedTechnicals } from "../../domain/signals/asset-features.js";
import { TechnicalIndicators } from "../../domain/indicators/technical-indicators.js";
import type { Candle } from "../../domain/signals/reading.js";
import type { SignalReading } from "../../domain/signals/reading.js";

const HOUR = 3_600_000;
const FOUR_HOURS = 4 * HOUR;

/**
 * Hourly bars kept in memory: 100 days, what the signal weights' no-skill baseline reads (a
 * trade's 90-day lookback, measured at the first 6-hour cycle after it closes, plus its hold).
 * The candles endpoint's limit of 1,000 reads the newest of them.
 */
export const KEPT_HOURLY_BARS = 2_400;

/**
 * One asset's live hourly bars, with 4 h bars built as buckets complete and both indicator sets
 * updated once per new closed bar (streaming; nothing is recomputed from the start).
 */
export class LiveCandleStore {
  private readonly h1: Candle[] = [];
  private readonly h4: Candle[] = [];
  private readonly ind1h = new TechnicalIndicators();
  private readonly ind4h = new TechnicalIndicators();
  /**
   * The indicator values after each kept bar, parallel to `h1` and `h4`: a Ghost Trader applying
   * two bars in one turn, and its 12-hour RSI low, read them as of earlier closes, as in replay.
   */
  private readonly tech1h: ObservedTechnicals[] = [];
  private readonly tech4h: ObservedTechnicals[] = [];
  private bucket: Candle | null = null;

  /** Open time of the newest stored bar, to ask the exchange only for newer ones. */
  get lastOpenTime(): number | null {
    return this.h1[this.h1.length - 1]?.t ?? null;
  }

  /**
   * Adds closed hourly bars (older or already-seen bars are ignored, so overlapping fetches are
   * harmless) and returns the technical values after each new bar.
   */
  append(bars: readonly Candle[], now: number): ObservedTechnicals[] {
    const out: ObservedTechnicals[] = [];
    for (const bar of [...bars].sort((a, b) => a.t - b.t)) {
      const last = this.lastOpenTime;
      // A bar still forming (close in the future) would be revised later: take closed bars only.
      if ((last !== null && bar.t <= last) || bar.t + HOUR > now) continue;
      const tech = { values: this.ind1h.update(bar), observedAt: bar.t + HOUR };
      this.h1.push(bar);
      this.tech1h.push(tech);
      if (this.h1.length > KEPT_HOURLY_BARS) {
        this.h1.shift();
        this.tech1h.shift();
      }
      out.push(tech);
      this.addToBucket(bar);
      this.dropFourHourBarsBefore((this.h1[0] as Candle).t);
    }
    return out;
  }

  /**
   * 4-hour bars are kept only while all four of their hours lie within the kept hourly bars (at
   * most 600, the 100 days), which bounds them too. Every replica holds the same hourly window
   * (polled, or loaded from the shared log, which keeps as long: feed-sync.ts), so every replica
   * serves the same 4-hour bars; a replica that had run for months used to hold 1,000 and one
   * started later 600, the oldest a partial bucket whose open, low and volume were wrong.
   */
  private dropFourHourBarsBefore(oldestHour: number): void {
    let drop = 0;
    while (drop < this.h4.length && (this.h4[drop] as Candle).t < oldestHour) drop++;
    if (drop === 0) return;
    this.h4.splice(0, drop);
    this.tech4h.splice(0, drop);
  }

  candles(interval: "1h" | "4h", at: number, limit: number): Candle[] {
    const bars = interval === "1h" ? this.h1 : this.h4;
    const ms = interval === "1h" ? HOUR : FOUR_HOURS;
    return bars.filter((b) => b.t + ms <= at).slice(-limit);
  }

  /** The values after the newest bar closed by `at` (null before the first kept bar closes). */
  technicals(interval: "1h" | "4h", at: number): ObservedTechnicals | null {
    const series = interval === "1h" ? this.tech1h : this.tech4h;
    // Closes ascend: binary search for the last one at or before `at`.
    let lo = 0;
    let hi = series.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((series[mid]?.observedAt ?? Number.POSITIVE_INFINITY) <= at) lo = mid + 1;
      else hi = mid;
    }
    return series[lo - 1] ?? null;
  }

  private addToBucket(bar: Candle): void {
    const start = bar.t - (bar.t % FOUR_HOURS);
    if (this.bucket && this.bucket.t !== start) this.closeBucket();
    this.bucket = this.bucket
      ? {
          t: start,
          o: this.bucket.o,
          h: Math.max(this.bucket.h, bar.h),
          l: Math.min(this.bucket.l, bar.l),
          c: bar.c,
          v: this.bucket.v + bar.v,
        }
      : { t: start, o: bar.o, h: bar.h, l: bar.l, c: bar.c, v: bar.v };
    // The bucket's last hour has arrived: the 4 h bar is closed now, not when the next one starts.
    if (bar.t === start + 3 * HOUR) this.closeBucket();
  }

  private closeBucket(): void {
    if (!this.bucket) return;
    // The first bucket of a process whose first hour is not the bucket's first lacks the hours
    // before the window: no 4-hour bar, and not fed to the 4-hour indicators either.
    if (this.bucket.t < (this.h1[0] as Candle).t) {
      this.bucket = null;
      return;
    }
    this.h4.push(this.bucket);
    this.tech4h.push({ values: this.ind4h.update(this.bucket), observedAt: this.bucket.t + FOUR_HOURS });
    this.bucket = null;
  }
}

/** The five BTC technical signals (catalogue) from one bar's indicator values. */
export function btcTechnicalReadings(t: ObservedTechnicals, source: string): SignalReading[] {
  const v = t.values;
  const pairs: [SignalReading["key"], number | null][] = [
    ["BTC_RSI", v.rsi14],
    ["BTC_EMA200_DISTANCE", v.ema200DistancePct],
    ["BTC_MACD_HIST", v.macdHistogram],
    ["BTC_REALIZED_VOL", v.realizedVolPct],
    ["BTC_VOLUME_RATIO", v.volumeRatio],
  ];
  return pairs
    .filter((p): p is [SignalReading["key"], number] => p[1] !== null)
    .map(([key, value]) => ({ key, value, observedAt: t.observedAt, source }));
}
