import { rollingReturnCorrelation } from "./derivations.js";
import { lastIndexAtOrBefore } from "./time-search.js";

/** Daily cross-asset series behind GET /v1/macro/correlation and the macro alert formulas. */
export const MACRO_SERIES_KEYS = ["US10Y", "DXY", "GOLD", "NASDAQ", "VIX", "FED_FUNDS"] as const;
export type MacroSeriesKey = (typeof MACRO_SERIES_KEYS)[number];

export interface MacroSeriesPoint {
  readonly key: MacroSeriesKey;
  readonly value: number;
  readonly observedAt: number;
  /** The previous observation (the previous trading day for US series), or null. */
  readonly previousValue: number | null;
  /** Pearson of the last 30 paired daily returns with BTC; null when not computable. */
  readonly correlation30d: number | null;
}

const DAY = 86_400_000;

/** One daily series in the form both feeds read "as of" a time, so replay and live agree to the bit. */
export interface DailyMacroSeries {
  /** When each row becomes observable, ascending. */
  readonly observableAt: Float64Array;
  readonly values: Float64Array;
  /** Pearson of the last 30 paired daily returns with BTC up to each row; NaN when not computable. */
  readonly correlation30d: Float64Array;
}

/**
 * Rows dated by UTC day start, ascending. A daily close is final only at the end of its day, so a
 * row is observable from the next 00:00 UTC; each correlation uses only rows and BTC closes up to
 * its own day, so nothing computed here looks past the row it belongs to.
 */
export function dailyMacroSeries(days: Float64Array, values: Float64Array, btcCloseOn: (dayStart: number) => number): DailyMacroSeries {
  return { observableAt: days.map((d) => d + DAY), values, correlation30d: rollingReturnCorrelation(days, values, btcCloseOn) };
}

/** The newest row observable at `at`, with the row before it; null before the first. */
export function macroPointAt(key: MacroSeriesKey, series: DailyMacroSeries, at: number): MacroSeriesPoint | null {
  const i = lastIndexAtOrBefore(series.observableAt, at);
  if (i < 0) return null;
  const corr = series.correlation30d[i] as number;
  return {
    key,
    value: series.values[i] as number,
    observedAt: series.observableAt[i] as number,
    previousValue: i > 0 ? (series.values[i - 1] as number) : null,
    correlation30d: Number.isNaN(corr) ? null : corr,
  };
}
