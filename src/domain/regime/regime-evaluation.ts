import { REGIMES, type Regime } from "../market/vocabulary.js";
import type { Candle } from "../signals/reading.js";
import { buildFeatures } from "./features.js";
import { withFlowContext, type FlowContext } from "./flow-context.js";
import { OnlineFilter } from "./online-filter.js";
import type { RegimeModel } from "./regime-model.js";
import { standardize } from "./standardizer.js";

/** Column of the log realized volatility in the feature rows (features.ts). */
const VOL_COLUMN = 1;
const RET_COLUMN = 0;
const TREND_COLUMN = 3;
const DAY = 24;

/** What the model says about the newest bar, before the hysteresis rule picks the published regime. */
export interface RegimeEvaluation {
  /** Open time of the newest bar evaluated. */
  readonly at: number;
  /** Filtered posterior of each state at the newest bar (uses no later bar). */
  readonly statePosterior: Float64Array;
  /** Each state's regime after the flow context (ACCUMULATION may become WHALE_ACCUMULATION). */
  readonly stateRegimes: readonly Regime[];
  /** Per-regime probability: the posterior summed over the states carrying that regime. */
  readonly probabilities: ReadonlyMap<Regime, number>;
  /** sub_regime notes from the flow context, per regime (e.g. FLOW_SIGNALS_DEAD). */
  readonly flowNotes: ReadonlyMap<Regime, string>;
  /** Standardized features of the newest bar and of the bar a day before it. */
  readonly features: Float64Array;
  readonly featuresDayAgo: Float64Array;
}

/**
 * Runs the online filter over the given bars (a trailing window is enough: the filter forgets
 * its start within days) and reads the newest bar. Standardizes with the model's training
 * statistics, never the window's own.
 */
export function evaluateRegime(model: RegimeModel, candles: readonly Candle[], flows: FlowContext): RegimeEvaluation {
  const raw = buildFeatures(candles);
  const rows = raw.obs.t;
  if (rows < DAY + 1) throw new RangeError(`need at least ${raw.firstBar + DAY + 1} bars to evaluate, got ${candles.length}`);
  const obs = standardize(raw.obs, model.standardizer);
  const filter = new OnlineFilter(model.params);
  for (let r = 0; r < rows; r++) filter.step(obs.data, r * obs.d);
  const { k } = model.params;
  const d = obs.d;
  const notes = new Map<Regime, string>();
  const stateRegimes = model.labels.map((base) => {
    const label = withFlowContext(base, flows);
    if (label.note !== null) notes.set(label.regime, label.note);
    return label.regime;
  });
  const statePosterior = filter.probabilities.slice();
  const probabilities = new Map<Regime, number>();
  for (let s = 0; s < k; s++) {
    const regime = stateRegimes[s] as Regime;
    probabilities.set(regime, (probabilities.get(regime) ?? 0) + (statePosterior[s] as number));
  }
  return {
    at: raw.times[rows - 1] as number,
    statePosterior,
    stateRegimes,
    probabilities: orderByVocabulary(probabilities),
    flowNotes: notes,
    features: obs.data.slice((rows - 1) * d, rows * d),
    featuresDayAgo: obs.data.slice((rows - 1 - DAY) * d, (rows - DAY) * d),
  };
}

/** Same keys in vocabulary order, so iteration (and tie-breaking) never depends on state order. */
function orderByVocabulary(m: Map<Regime, number>): Map<Regime, number> {
  const out = new Map<Regime, number>();
  for (const r of REGIMES) {
    const v = m.get(r);
    if (v !== undefined) out.set(r, v);
  }
  return out;
}

/**
 * DECISIONS 4: the fitted transition-matrix row of the current state, summed into regimes (all
 * eight keys, zeros included). The current state is the most probable state among those carrying
 * the published regime; if none does (the published regime outlived a refit that dropped it),
 * the most probable state overall.
 */
export function transitionProbabilities(model: RegimeModel, evaluation: RegimeEvaluation, regime: Regime): Record<Regime, number> {
  const { k, transMat } = model.params;
  let state = -1;
  for (let s = 0; s < k; s++) {
    if (evaluation.stateRegimes[s] !== regime) continue;
    if (state < 0 || (evaluation.statePosterior[s] as number) > (evaluation.statePosterior[state] as number)) state = s;
  }
  if (state < 0) {
    state = 0;
    for (let s = 1; s < k; s++) if ((evaluation.statePosterior[s] as number) > (evaluation.statePosterior[state] as number)) state = s;
  }
  const out = Object.fromEntries(REGIMES.map((r) => [r, 0])) as Record<Regime, number>;
  for (let j = 0; j < k; j++) {
    const to = evaluation.stateRegimes[j] as Regime;
    out[to] += transMat[state * k + j] as number;
  }
  return out;
}

/** sub_regime: what kind of the regime it is, from the newest bar's features and the flow notes. */
export function subRegime(regime: Regime, evaluation: RegimeEvaluation): string | null {
  const ret = evaluation.features[RET_COLUMN] as number;
  const trend = evaluation.features[TREND_COLUMN] as number;
  switch (regime) {
    case "BULL_TRENDING":
    case "RISK_ON":
      return ret > 0 && trend >= 0.5 ? "MOMENTUM_CONFIRMED" : "MOMENTUM_FADING";
    case "BEAR_TRENDING":
      return ret < 0 && trend <= -0.5 ? "MOMENTUM_CONFIRMED" : "MOMENTUM_FADING";
    case "HIGH_VOLATILITY":
      return ret >= 0 ? "VOLATILE_UPSIDE" : "VOLATILE_DOWNSIDE";
    case "LOW_VOLATILITY":
      return "COMPRESSION";
    case "ACCUMULATION":
    case "WHALE_ACCUMULATION":
    case "DISTRIBUTION":
      return evaluation.flowNotes.get(regime) ?? null;
  }
}

export function volatilityZ(evaluation: RegimeEvaluation): { now: number; dayAgo: number } {
  return { now: evaluation.features[VOL_COLUMN] as number, dayAgo: evaluation.featuresDayAgo[VOL_COLUMN] as number };
}
