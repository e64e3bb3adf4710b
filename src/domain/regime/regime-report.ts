import type { Regime } from "../market/vocabulary.js";
import type { Candle } from "../signals/reading.js";
import { choppiness } from "./choppiness.js";
import type { HysteresisState } from "./hysteresis.js";
import { subRegime, transitionProbabilities, volatilityZ, type RegimeEvaluation } from "./regime-evaluation.js";
import type { RegimeModel } from "./regime-model.js";
import { STRATEGIES_BY_REGIME } from "./strategies.js";
import { breakoutImminent, strengthOf, type Strength } from "./strength.js";
import { volatilityState, type VolatilityState } from "./volatility-state.js";
import { roundOrNull, roundTo } from "../numbers/round-to.js";
import { REGIMES } from "../market/vocabulary.js";

/**
 * Decimals of the published probabilities and scores (as the verdicts' confidences): a filtered
 * probability or a fitted transition carries no more, and 0.9850021555130338 or 4.5e-29 only
 * read as precision the model does not have.
 */
const PUBLISHED_DECIMALS = 4;

/** The regime fields of SPEC.md "Regime current", in domain form (the route adds caching). */
export interface RegimeReport {
  readonly regime: Regime;
  /** Filtered probability of the published regime at the newest bar, 4 decimals. */
  readonly confidence: number;
  readonly btcPrice: number | null;
  readonly detectedAt: number;
  readonly strength: Strength;
  readonly subRegime: string | null;
  readonly volatilityState: VolatilityState;
  /** 0..1, 4 decimals. */
  readonly chopScore: number | null;
  readonly breakoutImminent: boolean;
  readonly compatibleStrategies: readonly string[];
  readonly incompatibleStrategies: readonly string[];
  /** The fitted transition row of the current state, each 4 decimals (the row sums to 1 ± 0.0004). */
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
  // Rounded before strength and breakout read it, so the published confidence and the labels
  // drawn from it agree at their thresholds (0.7999996 is published 0.8, and so is STRONG).
  const confidence = roundTo(clamp01(evaluation.probabilities.get(regime) ?? 0), PUBLISHED_DECIMALS);
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
    chopScore: roundOrNull(choppiness(candles), PUBLISHED_DECIMALS),
    breakoutImminent: breakoutImminent(regime, confidence),
    compatibleStrategies: fit.compatible,
    incompatibleStrategies: fit.incompatible,
    transitionProbabilities: rounded(transitionProbabilities(model, evaluation, regime)),
    regimeAgeHours: Math.max(0, (now - hysteresis.since) / 3_600_000),
  };
}

function rounded(row: Record<Regime, number>): Record<Regime, number> {
  return Object.fromEntries(REGIMES.map((r) => [r, roundTo(row[r], PUBLISHED_DECIMALS)])) as Record<Regime, number>;
}

/** Sums of posteriors can exceed 1 by an ulp; the schema says 0..1. */
function clamp01(x: number): number {
  return Math.max(0, Math.min(1, x));
}
