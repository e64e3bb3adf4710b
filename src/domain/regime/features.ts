import type { Candle } from "../signals/reading.js";
import type { Observations } from "./hmm-params.js";

/** Feature columns, in order. Saved with the model so a model is never scored on other columns. */
export const FEATURE_NAMES = ["log_return_24h", "log_realized_vol_24h", "volume_zscore_168h", "trend_strength"] as const;
export const FEATURE_COUNT = FEATURE_NAMES.length;
/** Signed features whose zero means "flat": scaled, never centred (standardizer.ts). */
export const DIRECTIONAL_FEATURES: readonly number[] = [0, 3];

/** Bars of a day and of a week, the horizons of the features. */
const DAY = 24;
const WEEK = 168;
const FAST_EMA = 24;
const SLOW_EMA = 168;
/** The slow EMA (seeded at the first close) needs about its own length to forget the seed. */
export const FEATURE_WARMUP_BARS = WEEK;
/** A flat market has zero volatility; the log and the trend ratio need a floor. */
const MIN_VOL = 1e-8;
const TREND_CLIP = 10;

export interface FeatureMatrix {
  /** Open time of the bar each row describes; rows[i] uses bars up to and including it only. */
  readonly times: Float64Array;
  readonly obs: Observations;
  /** Index into the input candles of each row (rows start after the warm-up). */
  readonly firstBar: number;
}

/**
 * Features of the regime model from 1-hour bars, each using only bars up to its own (no
 * look-ahead), one row per bar after the warm-up:
 * - log_return_24h: ln(c_t / c_{t−24}); an hourly return is mostly noise, a day's carries direction.
 * - log_realized_vol_24h: ln of the standard deviation of the last 24 hourly log returns; the log
 *   makes volatility roughly Gaussian, which the emission model assumes.
 * - volume_zscore_168h: z-score of ln(1 + volume) against the trailing week, so it reads "busier
 *   than usual" whatever the era's absolute volumes.
 * - trend_strength: ln(EMA24 / EMA168) over the day's volatility (√24·σ_1h): the fast/slow
 *   spread in units of a day's noise, signed; comparable across calm and wild periods.
 * Bars are taken as consecutive; the bundled history's exchange outages (122 h since 2018) are
 * not filled.
 */
export function buildFeatures(candles: readonly Candle[]): FeatureMatrix {
  const n = candles.length;
  const first = FEATURE_WARMUP_BARS;
  const rows = Math.max(0, n - first);
  const d = FEATURE_COUNT;
  const data = new Float64Array(rows * d);
  const times = new Float64Array(rows);
  const logRet = new Float64Array(n);
  const logVolume = new Float64Array(n);
  let emaFast = 0;
  let emaSlow = 0;
  const aFast = 2 / (FAST_EMA + 1);
  const aSlow = 2 / (SLOW_EMA + 1);
  for (let i = 0; i < n; i++) {
    const c = candles[i] as Candle;
    if (!(c.c > 0) || !(c.v >= 0)) throw new RangeError(`bar ${i} has a non-positive close or negative volume`);
    logRet[i] = i === 0 ? 0 : Math.log(c.c / (candles[i - 1] as Candle).c);
    logVolume[i] = Math.log1p(c.v);
    emaFast = i === 0 ? c.c : emaFast + aFast * (c.c - emaFast);
    emaSlow = i === 0 ? c.c : emaSlow + aSlow * (c.c - emaSlow);
    if (i < first) continue;
    const row = (i - first) * d;
    times[i - first] = c.t;
    data[row] = Math.log(c.c / (candles[i - DAY] as Candle).c);
    const vol = stdev(logRet, i - DAY + 1, i + 1);
    data[row + 1] = Math.log(Math.max(vol, MIN_VOL));
    data[row + 2] = zscore(logVolume, i - WEEK + 1, i + 1, logVolume[i] as number);
    const spread = Math.log(emaFast / emaSlow);
    const dayNoise = Math.max(vol * Math.sqrt(DAY), MIN_VOL);
    data[row + 3] = Math.max(-TREND_CLIP, Math.min(TREND_CLIP, spread / dayNoise));
  }
  return { times, obs: { t: rows, d, data }, firstBar: first };
}

/** Two-pass population standard deviation of a[from..to). */
function stdev(a: Float64Array, from: number, to: number): number {
  const n = to - from;
  let mean = 0;
  for (let i = from; i < to; i++) mean += a[i] as number;
  mean /= n;
  let ss = 0;
  for (let i = from; i < to; i++) ss += ((a[i] as number) - mean) ** 2;
  return Math.sqrt(ss / n);
}

/** z-score of x against a[from..to); 0 when the window is constant (no "unusual" either way). */
function zscore(a: Float64Array, from: number, to: number, x: number): number {
  const n = to - from;
  let mean = 0;
  for (let i = from; i < to; i++) mean += a[i] as number;
  mean /= n;
  let ss = 0;
  for (let i = from; i < to; i++) ss += ((a[i] as number) - mean) ** 2;
  const sd = Math.sqrt(ss / n);
  return sd > 1e-12 ? (x - mean) / sd : 0;
}
