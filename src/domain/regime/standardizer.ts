import type { Observations } from "./hmm-params.js";

/** Per-feature mean and standard deviation of the training window. */
export interface Standardizer {
  readonly mean: Float64Array;
  readonly std: Float64Array;
}

/**
 * Statistics from the training window only: bars scored after a fit are standardized with the
 * fit's numbers, never with their own future. A constant feature gets std 1 (it stays 0) so
 * nothing divides by zero.
 *
 * `uncentered` columns are scaled by their root mean square but not centred: for a signed
 * feature (a return, a trend) 0 must keep meaning "flat". Centred on a bear market's window, a
 * merely average bar of the slide would read as "not falling" and be labelled accumulation.
 */
export function fitStandardizer(obs: Observations, uncentered: readonly number[] = []): Standardizer {
  const { t, d, data } = obs;
  const mean = new Float64Array(d);
  const std = new Float64Array(d);
  for (let f = 0; f < d; f++) {
    let m = 0;
    for (let r = 0; r < t; r++) m += data[r * d + f] as number;
    m = t > 0 && !uncentered.includes(f) ? m / t : 0;
    let ss = 0;
    for (let r = 0; r < t; r++) ss += ((data[r * d + f] as number) - m) ** 2;
    const sd = t > 0 ? Math.sqrt(ss / t) : 0;
    mean[f] = m;
    std[f] = sd > 1e-12 ? sd : 1;
  }
  return { mean, std };
}

export function standardize(obs: Observations, s: Standardizer): Observations {
  const { t, d, data } = obs;
  if (s.mean.length !== d) throw new RangeError(`standardizer has ${s.mean.length} features, observations ${d}`);
  const out = new Float64Array(t * d);
  for (let r = 0; r < t; r++) {
    for (let f = 0; f < d; f++) out[r * d + f] = ((data[r * d + f] as number) - (s.mean[f] as number)) / (s.std[f] as number);
  }
  return { t, d, data: out };
}
