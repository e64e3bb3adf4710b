import type { Regime } from "../market/vocabulary.js";

/** DECISIONS 4: a new regime needs filtered probability ≥ 0.6 ... */
export const SWITCH_PROBABILITY = 0.6;
/** ... on two consecutive hourly evaluations. */
export const SWITCH_EVALUATIONS = 2;

/** Serializable state, kept by the regime actor between hourly evaluations. */
export interface HysteresisState {
  readonly regime: Regime | null;
  /** When the current regime was entered (ms since epoch). */
  readonly since: number | null;
  readonly candidate: Regime | null;
  readonly candidateCount: number;
}

export const INITIAL_HYSTERESIS: HysteresisState = { regime: null, since: null, candidate: null, candidateCount: 0 };

export interface RegimeChange {
  readonly from: Regime | null;
  readonly to: Regime;
  readonly confidence: number;
}

export interface HysteresisStep {
  readonly state: HysteresisState;
  /** Set when this evaluation moved the regime (the `regime.change` event). */
  readonly change: RegimeChange | null;
}

/**
 * One hourly evaluation of DECISIONS 4's transition rule against flapping: the regime moves to
 * the most probable one only once it has held ≥ 0.6 twice in a row. The very first evaluation
 * adopts the most probable regime at once (there is nothing to protect yet). Ties between
 * regimes go to the one listed first in `probabilities`, so the rule is deterministic.
 */
export function evaluateHysteresis(
  state: HysteresisState,
  probabilities: ReadonlyMap<Regime, number>,
  at: number,
): HysteresisStep {
  let top: Regime | null = null;
  let p = -Infinity;
  for (const [regime, prob] of probabilities) {
    if (prob > p) {
      top = regime;
      p = prob;
    }
  }
  if (top === null) return { state, change: null };
  if (state.regime === null) {
    return {
      state: { regime: top, since: at, candidate: null, candidateCount: 0 },
      change: { from: null, to: top, confidence: p },
    };
  }
  if (top === state.regime || p < SWITCH_PROBABILITY) {
    return { state: { ...state, candidate: null, candidateCount: 0 }, change: null };
  }
  const count = state.candidate === top ? state.candidateCount + 1 : 1;
  if (count >= SWITCH_EVALUATIONS) {
    return {
      state: { regime: top, since: at, candidate: null, candidateCount: 0 },
      change: { from: state.regime, to: top, confidence: p },
    };
  }
  return { state: { ...state, candidate: top, candidateCount: count }, change: null };
}
