import { cloneParams, type HmmParams, type Observations } from "./hmm-params.js";
import { EmStatistics } from "./em-statistics.js";
import { ForwardBackwardWorkspace, forwardInto } from "./forward-backward.js";
import { flushDistribution } from "./underflow.js";
import { varianceFloors } from "./variance-floor.js";

export interface BaumWelchOptions {
  /** Maximum EM iterations (each one E-step and one M-step). */
  readonly maxIterations: number;
  /** Stop when an iteration raises the log-likelihood by less than this (absolute). */
  readonly tolerance: number;
  /** Per-feature variance floors; defaults to `varianceFloors(obs)`. */
  readonly floors?: Float64Array;
}

export interface BaumWelchResult {
  readonly params: HmmParams;
  /** log P(x | params) of the returned params. */
  readonly loglik: number;
  /** Log-likelihood before each M-step, then of the returned params (non-decreasing). */
  readonly history: readonly number[];
  readonly iterations: number;
  readonly converged: boolean;
}

/** Below this expected occupancy a state is treated as unused and keeps its previous emission. */
const MIN_OCCUPANCY = 1e-10;

/**
 * Expectation-maximisation for the diagonal Gaussian HMM. Every M-step is the exact maximiser
 * of the expected complete-data log-likelihood under the variance floor, so the likelihood never
 * decreases (a test checks this on real data); an unused state keeps its parameters instead of
 * turning into 0/0.
 */
export function baumWelch(obs: Observations, init: HmmParams, options: BaumWelchOptions): BaumWelchResult {
  if (obs.d !== init.d) throw new RangeError(`observations have ${obs.d} features, model has ${init.d}`);
  if (obs.t < 2) throw new RangeError("Baum-Welch needs at least two observations");
  const params = cloneParams(init);
  const floors = options.floors ?? varianceFloors(obs);
  const ws = new ForwardBackwardWorkspace(obs.t, params.k);
  const stats = new EmStatistics(params.k, params.d);
  const history: number[] = [];
  let converged = false;
  let iterations = 0;
  let prev = -Infinity;
  for (; iterations < options.maxIterations; iterations++) {
    const loglik = forwardInto(params, obs, ws);
    if (!Number.isFinite(loglik)) throw new RangeError("log-likelihood is not finite: the inputs hold NaN, or the model gives an observation probability 0");
    history.push(loglik);
    if (loglik - prev < options.tolerance) {
      converged = true;
      break;
    }
    prev = loglik;
    stats.accumulate(params, obs, ws);
    maximise(params, stats, floors);
  }
  let loglik: number;
  if (converged) {
    // The last E-step already scored these params; no M-step followed it.
    loglik = history[history.length - 1] as number;
  } else {
    loglik = forwardInto(params, obs, ws);
    history.push(loglik);
  }
  return { params, loglik, history, iterations, converged };
}

/** The M-step from the E-step's sums: each update the exact maximiser under the variance floor. */
function maximise(p: HmmParams, stats: EmStatistics, floors: Float64Array): void {
  const { k, d } = p;
  const { pairs, occupancy, sums, squares, shift } = stats;

  p.startProb.set(stats.first);
  flushDistribution(p.startProb, 0, k);

  // ξ sums are A ∘ pairs (em-statistics.ts), normalised per row.
  for (let i = 0; i < k; i++) {
    let row = 0;
    for (let j = 0; j < k; j++) row += (p.transMat[i * k + j] as number) * (pairs[i * k + j] as number);
    // A state never left (or never visited) keeps its row: there is no evidence to move it.
    if (!(row > 0)) continue;
    const inv = 1 / row;
    for (let j = 0; j < k; j++) p.transMat[i * k + j] = (p.transMat[i * k + j] as number) * (pairs[i * k + j] as number) * inv;
    flushDistribution(p.transMat, i * k, k);
  }

  // Means and variances from sums around the previous means m: Σγ(x−m) and Σγ(x−m)². Plain
  // Σγx² − nμ² cancels catastrophically when a feature's mean is large against its spread;
  // around m (close to the new mean) it does not, and no second pass over the data is needed.
  for (let s = 0; s < k; s++) {
    const n = occupancy[s] as number;
    // A state nothing occupies keeps its emission: there is no evidence to move it.
    if (!(n > MIN_OCCUPANCY)) continue;
    for (let f = 0; f < d; f++) {
      const j = s * d + f;
      const delta = (sums[j] as number) / n;
      p.means[j] = (shift[j] as number) + delta;
      p.vars[j] = Math.max((squares[j] as number) / n - delta * delta, floors[f] as number);
    }
  }
}
