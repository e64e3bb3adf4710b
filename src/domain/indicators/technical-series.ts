import type { CandleSeries } from "../signals/candle-series.js";
import { TechnicalIndicators, type TechnicalValues } from "./technical-indicators.js";

const FIELDS = [
  "rsi14",
  "ema200",
  "ema200DistancePct",
  "macd",
  "macdSignal",
  "macdHistogram",
  "realizedVolPct",
  "volumeRatio",
] as const;
type Field = (typeof FIELDS)[number];

/**
 * Indicator values after every bar of a candle series, column-wise (NaN where not yet defined),
 * computed in one streaming pass; `closeTime[i]` is when bar i's values became observable.
 */
export interface TechnicalSeries {
  readonly closeTime: Float64Array;
  readonly close: Float64Array;
  readonly fields: Readonly<Record<Field, Float64Array>>;
}

export function computeTechnicalSeries(series: CandleSeries, realizedVolWindow?: number): TechnicalSeries {
  const n = series.length;
  const ind = new TechnicalIndicators(realizedVolWindow);
  const fields = Object.fromEntries(FIELDS.map((f) => [f, new Float64Array(n)])) as Record<Field, Float64Array>;
  const closeTime = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const values = ind.update(series.at(i));
    closeTime[i] = (series.t[i] as number) + series.intervalMs;
    for (const f of FIELDS) fields[f][i] = values[f] ?? Number.NaN;
  }
  return { closeTime, close: series.c, fields };
}

const orNull = (x: number | undefined): number | null => (x === undefined || Number.isNaN(x) ? null : x);

/** The values after bar `i`, in the streaming indicator's shape. */
export function technicalValuesAt(series: TechnicalSeries, openTime: number, i: number): TechnicalValues {
  const f = series.fields;
  return {
    t: openTime,
    close: series.close[i] as number,
    rsi14: orNull(f.rsi14[i]),
    ema200: orNull(f.ema200[i]),
    ema200DistancePct: orNull(f.ema200DistancePct[i]),
    macd: orNull(f.macd[i]),
    macdSignal: orNull(f.macdSignal[i]),
    macdHistogram: orNull(f.macdHistogram[i]),
    realizedVolPct: orNull(f.realizedVolPct[i]),
    volumeRatio: orNull(f.volumeRatio[i]),
  };
}
