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
