/**
 * Parameters of a Gaussian hidden Markov model with diagonal covariance, held in flat
 * Float64Arrays (row-major) so the inner loops of forward-backward, Viterbi and Baum-Welch index
 * contiguous memory and allocate nothing.
 *
 * Diagonal rather than full covariance: with 4 standardized features the off-diagonal terms
 * bought no better regime separation on BTC history, cost a Cholesky per state per iteration and
 * are where EM most often degenerates (singular covariances on short calm stretches).
 */
export interface HmmParams {
  /** Number of hidden states. */
  readonly k: number;
  /** Number of features per observation. */
  readonly d: number;
  /** Initial state distribution, length k. */
  readonly startProb: Float64Array;
  /** Transition matrix, k×k row-major; row i is P(next state | state i). */
  readonly transMat: Float64Array;
  /** Emission means, k×d row-major. */
  readonly means: Float64Array;
  /** Emission variances (diagonal covariance), k×d row-major, each ≥ the variance floor. */
  readonly vars: Float64Array;
}

/** Observations: t rows of d features, row-major. */
export interface Observations {
  readonly t: number;
  readonly d: number;
  readonly data: Float64Array;
}

export function observations(rows: readonly (readonly number[])[]): Observations {
  const t = rows.length;
  const d = rows[0]?.length ?? 0;
  const data = new Float64Array(t * d);
  rows.forEach((row, i) => {
    if (row.length !== d) throw new RangeError(`row ${i} has ${row.length} features, expected ${d}`);
    data.set(row, i * d);
  });
  return { t, d, data };
}

export function cloneParams(p: HmmParams): HmmParams {
  return {
    k: p.k,
    d: p.d,
    startProb: p.startProb.slice(),
    transMat: p.transMat.slice(),
    means: p.means.slice(),
    vars: p.vars.slice(),
  };
}

/** Throws unless the shapes agree and every probability row is a distribution. */
export function assertValidParams(p: HmmParams): void {
  const { k, d } = p;
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
  if (!Number.isInteger(d) || d < 1) throw new RangeError(`d must be a positive integer, got ${d}`);
  if (p.startProb.length !== k) throw new RangeError("startProb must have k entries");
  if (p.transMat.length !== k * k) throw new RangeError("transMat must have k×k entries");
  if (p.means.length !== k * d) throw new RangeError("means must have k×d entries");
  if (p.vars.length !== k * d) throw new RangeError("vars must have k×d entries");
  assertDistribution(p.startProb, 0, k, "startProb");
  for (let i = 0; i < k; i++) assertDistribution(p.transMat, i * k, k, `transMat row ${i}`);
  for (let j = 0; j < k * d; j++) {
    const v = p.vars[j] as number;
    if (!(v > 0) || !Number.isFinite(v)) throw new RangeError(`variance ${j} must be positive and finite, got ${v}`);
    if (!Number.isFinite(p.means[j] as number)) throw new RangeError(`mean ${j} is not finite`);
  }
}

function assertDistribution(a: Float64Array, from: number, n: number, what: string): void {
  let sum = 0;
  for (let i = from; i < from + n; i++) {
    const x = a[i] as number;
    if (!(x >= 0) || !Number.isFinite(x)) throw new RangeError(`${what} has an invalid probability ${x}`);
    sum += x;
  }
  if (Math.abs(sum - 1) > 1e-6) throw new RangeError(`${what} sums to ${sum}, not 1`);
}
