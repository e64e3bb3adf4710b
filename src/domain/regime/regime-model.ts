import type { Regime } from "../market/vocabulary.js";
import type { Candle } from "../signals/reading.js";
import { buildFeatures, DIRECTIONAL_FEATURES, FEATURE_NAMES, FEATURE_WARMUP_BARS } from "./features.js";
import { fitHmm, DEFAULT_MAX_ITERATIONS, DEFAULT_RESTARTS, DEFAULT_TOLERANCE } from "./fit-hmm.js";
import type { HmmParams } from "./hmm-params.js";
import { hmmFromJson, hmmToJson } from "./model-json.js";
import { regimeModelSchema, type RegimeModelJson } from "./model-schema.js";
import { fitStandardizer, standardize, type Standardizer } from "./standardizer.js";
import { labelStates } from "./state-labels.js";

/** A fitted regime model: HMM, the training window's standardizer, and each state's regime. */
export interface RegimeModel {
  readonly params: HmmParams;
  readonly standardizer: Standardizer;
  /** Price-feature label of each state (before flow context). */
  readonly labels: readonly Regime[];
  readonly fit: RegimeFitInfo;
}

export interface RegimeFitInfo {
  readonly seed: number;
  readonly restarts: number;
  readonly iterations: number;
  readonly converged: boolean;
  readonly warmStarted: boolean;
  readonly loglik: number;
  readonly bars: number;
  readonly windowStart: number;
  readonly windowEnd: number;
  readonly trainedAt: number;
}

export interface TrainOptions {
  /** Hidden states; six leave room for every price-feature label without starving any. */
  readonly states?: number;
  readonly seed?: number;
  readonly restarts?: number;
  readonly maxIterations?: number;
  readonly tolerance?: number;
  /** When the model is trained (market time, ms). */
  readonly trainedAt: number;
  /** The model this refit replaces: its states are an extra, preferred start (fit-hmm.ts). */
  readonly previous?: RegimeModel;
  /** See FitOptions.warmStartMargin. */
  readonly warmStartMargin?: number;
}

export const DEFAULT_STATES = 6;
export const DEFAULT_SEED = 20240101;
/** Fewest feature rows worth fitting: two weeks of hours. */
export const MIN_TRAINING_ROWS = 336;

/**
 * Fits the regime HMM on a training window of 1-hour bars (the caller picks the window, e.g. the
 * trailing 180 days for the weekly walk-forward refit). Standardization uses this window only.
 */
export function trainRegimeModel(candles: readonly Candle[], options: TrainOptions): RegimeModel {
  const features = buildFeatures(candles);
  if (features.obs.t < MIN_TRAINING_ROWS) {
    throw new RangeError(`need at least ${MIN_TRAINING_ROWS + FEATURE_WARMUP_BARS} bars to train, got ${candles.length}`);
  }
  const standardizer = fitStandardizer(features.obs, DIRECTIONAL_FEATURES);
  const obs = standardize(features.obs, standardizer);
  const restarts = options.restarts ?? DEFAULT_RESTARTS;
  const fit = fitHmm(obs, {
    states: options.states ?? DEFAULT_STATES,
    seed: options.seed ?? DEFAULT_SEED,
    restarts,
    maxIterations: options.maxIterations ?? DEFAULT_MAX_ITERATIONS,
    tolerance: options.tolerance ?? DEFAULT_TOLERANCE,
    ...(options.previous ? { warmStart: restandardize(options.previous, standardizer) } : {}),
    ...(options.warmStartMargin !== undefined ? { warmStartMargin: options.warmStartMargin } : {}),
  });
  return {
    params: fit.params,
    standardizer,
    labels: labelStates(fit.params),
    fit: {
      seed: fit.seed,
      restarts,
      iterations: fit.iterations,
      converged: fit.converged,
      warmStarted: fit.warmStarted,
      loglik: fit.loglik,
      bars: obs.t,
      windowStart: features.times[0] as number,
      windowEnd: features.times[features.times.length - 1] as number,
      trainedAt: options.trainedAt,
    },
  };
}

export function regimeModelToJson(m: RegimeModel): RegimeModelJson {
  return {
    format: "regime-hmm",
    version: 1,
    covariance_type: "diag",
    features: [...FEATURE_NAMES],
    hmm: hmmToJson(m.params),
    standardizer: { mean: Array.from(m.standardizer.mean), std: Array.from(m.standardizer.std) },
    labels: [...m.labels],
    fit: {
      seed: m.fit.seed,
      restarts: m.fit.restarts,
      iterations: m.fit.iterations,
      converged: m.fit.converged,
      warm_started: m.fit.warmStarted,
      loglik: m.fit.loglik,
      bars: m.fit.bars,
      window_start: new Date(m.fit.windowStart).toISOString(),
      window_end: new Date(m.fit.windowEnd).toISOString(),
      trained_at: new Date(m.fit.trainedAt).toISOString(),
    },
  };
}

/** Validates a stored model (zod) and rebuilds it; a model with other feature columns is refused. */
export function regimeModelFromJson(json: unknown): RegimeModel {
  const m = regimeModelSchema.parse(json);
  if (m.features.join(",") !== FEATURE_NAMES.join(",")) {
    throw new RangeError(`model features ${m.features.join(",")} differ from this build's ${FEATURE_NAMES.join(",")}`);
  }
  return {
    params: hmmFromJson(m.hmm),
    standardizer: { mean: Float64Array.from(m.standardizer.mean), std: Float64Array.from(m.standardizer.std) },
    labels: m.labels,
    fit: {
      seed: m.fit.seed,
      restarts: m.fit.restarts,
      iterations: m.fit.iterations,
      converged: m.fit.converged,
      warmStarted: m.fit.warm_started,
      loglik: m.fit.loglik,
      bars: m.fit.bars,
      windowStart: Date.parse(m.fit.window_start),
      windowEnd: Date.parse(m.fit.window_end),
      trainedAt: Date.parse(m.fit.trained_at),
    },
  };
}

/**
 * The previous model's emissions expressed in the new window's standardized units (same raw
 * feature values, new mean and std), so it can seed the refit.
 */
function restandardize(previous: RegimeModel, next: Standardizer): HmmParams {
  const p = previous.params;
  const { k, d } = p;
  const means = new Float64Array(k * d);
  const vars = new Float64Array(k * d);
  for (let s = 0; s < k; s++) {
    for (let f = 0; f < d; f++) {
      const oldStd = previous.standardizer.std[f] as number;
      const newStd = next.std[f] as number;
      const raw = (p.means[s * d + f] as number) * oldStd + (previous.standardizer.mean[f] as number);
      means[s * d + f] = (raw - (next.mean[f] as number)) / newStd;
      vars[s * d + f] = (p.vars[s * d + f] as number) * (oldStd / newStd) ** 2;
    }
  }
  return { k, d, startProb: p.startProb.slice(), transMat: p.transMat.slice(), means, vars };
}
