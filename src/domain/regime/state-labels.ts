import type { Regime } from "../market/vocabulary.js";
import type { HmmParams } from "./hmm-params.js";

/**
 * Thresholds on a state's emission means, in training-window standard deviations of each
 * feature (columns of FEATURE_NAMES). Relative units keep the labels meaningful across eras:
 * "high volatility" in 2018 and in 2024 are different absolute numbers.
 */
export const LABEL_THRESHOLDS = {
  trend: 0.5,
  /** A trend this strong is named a trend even when volatility is high (a rally is volatile). */
  strongTrend: 1.0,
  highVol: 0.75,
  lowVol: -0.5,
  heavyVolume: 0.25,
  /** A quiet state drifting down by more than this reads as distribution, not accumulation. */
  quietDecline: -0.25,
} as const;

/** Column of each feature in the observation rows (see features.ts). */
const RET = 0;
const VOL = 1;
const VOLUME = 2;
const TREND = 3;

/**
 * The regime a hidden state stands for, by deterministic rules on its emission means. EM
 * numbers states arbitrarily and a refit may permute them (label switching); naming each state
 * by what it looks like, not by its index, makes the published regime survive refits.
 * Rules, first match wins:
 * 1. |trend| ≥ 1.0 with a return of the same sign: BULL_TRENDING / BEAR_TRENDING.
 * 2. volatility ≥ +0.75: HIGH_VOLATILITY.
 * 3. |trend| ≥ 0.5 with a return of the same sign: BULL_TRENDING / BEAR_TRENDING.
 * 4. volatility ≤ −0.5: LOW_VOLATILITY.
 * 5. volume ≥ +0.25: RISK_ON when trend ≥ 0 (buying with appetite), DISTRIBUTION when trend < 0
 *    (heavy volume into softness: offloading).
 * 6. otherwise (quiet, no trend): ACCUMULATION unless the return is below −0.25 (a
 *    dead zone: a state whose mean return is ≈ 0 must not flip label between refits), then DISTRIBUTION.
 * WHALE_ACCUMULATION is never a state label: it needs flow data the price features lack and is
 * applied on top of ACCUMULATION by `withFlowContext`.
 */
export function labelState(means: ArrayLike<number>): Regime {
  const ret = means[RET] as number;
  const vol = means[VOL] as number;
  const volume = means[VOLUME] as number;
  const trend = means[TREND] as number;
  const t = LABEL_THRESHOLDS;
  if (trend >= t.strongTrend && ret > 0) return "BULL_TRENDING";
  if (trend <= -t.strongTrend && ret < 0) return "BEAR_TRENDING";
  if (vol >= t.highVol) return "HIGH_VOLATILITY";
  if (trend >= t.trend && ret > 0) return "BULL_TRENDING";
  if (trend <= -t.trend && ret < 0) return "BEAR_TRENDING";
  if (vol <= t.lowVol) return "LOW_VOLATILITY";
  if (volume >= t.heavyVolume) return trend >= 0 ? "RISK_ON" : "DISTRIBUTION";
  return ret >= t.quietDecline ? "ACCUMULATION" : "DISTRIBUTION";
}

export function labelStates(p: HmmParams): Regime[] {
  if (p.d < 4) throw new RangeError("state labelling needs the four regime features");
  return Array.from({ length: p.k }, (_, s) => labelState(p.means.subarray(s * p.d, s * p.d + p.d)));
}
