import type { HmmParams, Observations } from "./hmm-params.js";

const LOG_2PI = Math.log(2 * Math.PI);

/**
 * Per-state constants of the diagonal Gaussian log-density, computed once per parameter set so
 * the per-observation work is one multiply-add per feature (no log, no division).
 */
export interface EmissionConstants {
  /** −½(d·log 2π + Σ log σ²), length k. */
  readonly logNorm: Float64Array;
  /** −½/σ², k×d. */
  readonly negHalfInvVar: Float64Array;
}

export function emissionConstants(p: HmmParams, out?: EmissionConstants): EmissionConstants {
  const { k, d } = p;
  const logNorm = out?.logNorm ?? new Float64Array(k);
  const negHalfInvVar = out?.negHalfInvVar ?? new Float64Array(k * d);
  for (let s = 0; s < k; s++) {
    let sumLogVar = 0;
    for (let f = 0; f < d; f++) {
      const v = p.vars[s * d + f] as number;
      sumLogVar += Math.log(v);
      negHalfInvVar[s * d + f] = -0.5 / v;
    }
    logNorm[s] = -0.5 * (d * LOG_2PI + sumLogVar);
  }
  return { logNorm, negHalfInvVar };
}

/** log N(x_t | μ_s, diag σ²_s) for one observation row into out[outOffset .. +k). */
export function logEmissionRow(
  p: HmmParams,
  c: EmissionConstants,
  x: ArrayLike<number>,
  xOffset: number,
  out: Float64Array,
  outOffset: number,
): void {
  const { k, d } = p;
  const means = p.means;
  const nh = c.negHalfInvVar;
  for (let s = 0; s < k; s++) {
    let acc = c.logNorm[s] as number;
    const base = s * d;
    for (let f = 0; f < d; f++) {
      const diff = (x[xOffset + f] as number) - (means[base + f] as number);
      acc += (nh[base + f] as number) * diff * diff;
    }
    out[outOffset + s] = acc;
  }
}

/** The t×k matrix of emission log-densities. */
export function logEmissions(p: HmmParams, obs: Observations, out?: Float64Array): Float64Array {
  if (obs.d !== p.d) throw new RangeError(`observations have ${obs.d} features, model has ${p.d}`);
  const result = out ?? new Float64Array(obs.t * p.k);
  const c = emissionConstants(p);
  for (let t = 0; t < obs.t; t++) logEmissionRow(p, c, obs.data, t * obs.d, result, t * p.k);
  return result;
}
