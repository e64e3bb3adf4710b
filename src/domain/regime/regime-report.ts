import type { Regime } from "../market/vocabulary.js";
import type { Candle } from "../signals/reading.js";
import { choppiness } from "./choppiness.js";
import type { HysteresisState } from "./hysteresis.js";
import { subRegime, transitionProbabilities, volatilityZ, type RegimeEvaluation } from "./regime-evaluation.js";
import type { RegimeModel } from "./regime-model.js";
import { STRATEGIES_BY_REGIME } from "./strategies.js";
import { breakoutImminent, strengthOf, type Strength } from "./strength.js";
import { volatilityState, type VolatilityState } from "./volatility-state.js";

/** The regime fields of SPEC.md "Regime current", in domain form (the route adds caching). */
export interface RegimeReport {
  readonly regime: Regime;
  /** Filtered probability of the published regime at the newest bar. */
  readonly confidence: number;
  readonly btcPrice: number | null;
  readonly detectedAt: number;
  readonly strength: Strength;
  readonly subRegime: string | null;
  readonly volatilityState: VolatilityState;
  readonly chopScore: number | null;
  readonly breakoutImminent: boolean;
  readonly compatibleStrategies: readonly string[];
  readonly incompatibleStrategies: readonly string[];
  readonly transitionProbabilities: Record<Regime, number>;
  readonly regimeAgeHours: number;
}

/**
 * Assembles the published fields once the hysteresis rule has chosen the regime. `candles` are
 * the bars the evaluation used (newest last); `now` is market time.
 */
export function regimeReport(
  model: RegimeModel,
  evaluation: RegimeEvaluation,
  hysteresis: HysteresisState,
  candles: readonly Candle[],
  now: number,
): RegimeReport {
  if (hysteresis.regime === null || hysteresis.since === null) throw new RangeError("no regime has been adopted yet");
  const regime = hysteresis.regime;
  const confidence = clamp01(evaluation.probabilities.get(regime) ?? 0);
  const vol = volatilityZ(evaluation);
  const fit = STRATEGIES_BY_REGIME[regime];
  const last = candles[candles.length - 1];
  return {
    regime,
    confidence,
    btcPrice: last?.c ?? null,
    // The newest bar is known once it closes, an hour after its open time.
    detectedAt: evaluation.at + 3_600_000,
    strength: strengthOf(confidence),
    subRegime: subRegime(regime, evaluation),
    volatilityState: volatilityState(vol.now, vol.dayAgo),
    chopScore: choppiness(candles),
    breakoutImminent: breakoutImminent(regime, confidence),
    compatibleStrategies: fit.compatible,
    incompatibleStrategies: fit.incompatible,
    transitionProbabilities: transitionProbabilities(model, evaluation, regime),
    regimeAgeHours: Math.max(0, (now - hysteresis.since) / 3_600_000),
  };
}

/** Sums of posteriors can exceed 1 by an ulp; the schema says 0..1. */
function clamp01(x: number): number {
  return Math.max(0, Math.min(1, x));
}
