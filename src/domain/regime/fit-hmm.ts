import type { HmmParams, Observations } from "./hmm-params.js";
import { baumWelch, type BaumWelchResult } from "./baum-welch.js";
import { initialParams } from "./initial-params.js";
import { varianceFloors } from "./variance-floor.js";

export interface FitOptions {
  /** Number of hidden states. */
  readonly states: number;
  /** Seed of the first restart; restart r uses seed + r. */
  readonly seed: number;
  /** Independent EM runs from different seeded starts; the best likelihood wins. */
  readonly restarts?: number;
  readonly maxIterations?: number;
  readonly tolerance?: number;
  /**
   * The previous model's parameters (in this window's feature space) as an extra start. It wins
   * unless a fresh restart beats it by more than `warmStartMargin` nats per bar, so a weekly
   * refit keeps its states (and their regime labels) when the data has not really moved.
   */
  readonly warmStart?: HmmParams;
  readonly warmStartMargin?: number;
}

export interface FitResult extends BaumWelchResult {
  /** Seed of the winning restart. */
  readonly seed: number;
  /** Final log-likelihood of every restart, in order. */
  readonly restartLoglik: readonly number[];
  /** True when the previous model's parameters, refined, were kept. */
  readonly warmStarted: boolean;
}

export const DEFAULT_RESTARTS = 10;
export const DEFAULT_MAX_ITERATIONS = 100;
export const DEFAULT_TOLERANCE = 1e-4;
/** Nats per bar a fresh restart must gain over the warm start to replace it. */
export const DEFAULT_WARM_START_MARGIN = 0.01;

/**
 * Baum-Welch from several seeded starts (EM finds a local optimum; the restarts make a bad one
 * unlikely). Deterministic: the same observations and options give the same model, bit for bit.
 */
export function fitHmm(obs: Observations, options: FitOptions): FitResult {
  const restarts = options.restarts ?? DEFAULT_RESTARTS;
  if (!Number.isInteger(options.states) || options.states < 1) throw new RangeError("states must be a positive integer");
  if (!Number.isInteger(restarts) || restarts < 1) throw new RangeError("restarts must be a positive integer");
  const floors = varianceFloors(obs);
  let best: BaumWelchResult | null = null;
  let bestSeed = options.seed;
  const restartLoglik: number[] = [];
  for (let r = 0; r < restarts; r++) {
    const seed = options.seed + r;
    const init: HmmParams = initialParams(obs, options.states, seed, floors);
    const run = baumWelch(obs, init, {
      maxIterations: options.maxIterations ?? DEFAULT_MAX_ITERATIONS,
      tolerance: options.tolerance ?? DEFAULT_TOLERANCE,
      floors,
    });
    restartLoglik.push(run.loglik);
    // Strictly greater: on a tie the earlier seed wins, keeping the choice deterministic.
    if (best === null || run.loglik > best.loglik) {
      best = run;
      bestSeed = seed;
    }
  }
  if (best === null) throw new Error("unreachable: at least one restart runs");
  const warm = options.warmStart === undefined ? null : warmRun(obs, options.warmStart, options, floors);
  if (warm !== null) {
    const margin = (options.warmStartMargin ?? DEFAULT_WARM_START_MARGIN) * obs.t;
    if (Number.isFinite(warm.loglik) && warm.loglik + margin >= best.loglik) {
      return { ...warm, seed: options.seed, restartLoglik, warmStarted: true };
    }
  }
  return { ...best, seed: bestSeed, restartLoglik, warmStarted: false };
}

/**
 * EM from the previous model, or null when it cannot run. EM never revives a transition it has
 * driven to exactly 0, so a warm-started chain gathers zeros refit after refit; once a new bar is
 * explained only by a state the zeros make unreachable, the observations are impossible under
 * that model and its likelihood is not finite. The restarts fitted these same observations, so
 * the fault is the warm start's: the best restart is used, where the throw had discarded it too
 * and kept the regime on an old model refit after refit.
 */
function warmRun(obs: Observations, warmStart: HmmParams, options: FitOptions, floors: Float64Array): BaumWelchResult | null {
  try {
    return baumWelch(obs, warmStart, {
      maxIterations: options.maxIterations ?? DEFAULT_MAX_ITERATIONS,
      tolerance: options.tolerance ?? DEFAULT_TOLERANCE,
      floors,
    });
  } catch (err) {
    if (err instanceof RangeError) return null;
    throw err;
  }
}
