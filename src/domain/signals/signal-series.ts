import type { SignalReading } from "./reading.js";
import type { SignalKey } from "./signal-keys.js";
import { lastIndexAtOrBefore } from "./time-search.js";

/** A signal's readings over time, column-wise: `t` is when each value became observable. */
export interface SignalSeries {
  readonly key: SignalKey;
  readonly source: string;
  readonly t: Float64Array;
  readonly v: Float64Array;
}

/** A (time, value) series under construction, frozen into typed arrays once built. */
export class SeriesBuilder {
  private readonly times: number[] = [];
  private readonly values: number[] = [];

  push(t: number, v: number): void {
    // Readings derived from a rolling window can be undefined early on; never emit a non-number.
    if (!Number.isFinite(v)) return;
    this.times.push(t);
    this.values.push(v);
  }

  build(key: SignalKey, source: string): SignalSeries {
    return { key, source, t: Float64Array.from(this.times), v: Float64Array.from(this.values) };
  }
}

export function readingAt(series: SignalSeries, at: number): SignalReading | null {
  const i = lastIndexAtOrBefore(series.t, at);
  if (i < 0) return null;
  return { key: series.key, value: series.v[i] as number, observedAt: series.t[i] as number, source: series.source };
}

/** Readings observed in [from, to], oldest first. */
export function readingsBetween(series: SignalSeries, from: number, to: number): SignalReading[] {
  const out: SignalReading[] = [];
  const end = lastIndexAtOrBefore(series.t, to);
  for (let i = lastIndexAtOrBefore(series.t, from - 1) + 1; i <= end; i++) {
    out.push({ key: series.key, value: series.v[i] as number, observedAt: series.t[i] as number, source: series.source });
  }
  return out;
}
