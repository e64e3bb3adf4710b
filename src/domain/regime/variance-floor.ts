import type { Observations } from "./hmm-params.js";

/** Relative floor: a state's variance never drops below this share of the feature's overall variance. */
export const RELATIVE_VARIANCE_FLOOR = 1e-3;
/** Absolute floor, so a constant feature (flat prices: zero variance) still has a finite density. */
export const ABSOLUTE_VARIANCE_FLOOR = 1e-8;

/**
 * Per-feature variance floors. Without one, EM can shrink a state onto a handful of identical
 * bars (a flat weekend, a stuck feed) and its variance to 0, where the likelihood is unbounded
 * and every later step is NaN.
 */
export function varianceFloors(obs: Observations): Float64Array {
  const { t, d, data } = obs;
  const floors = new Float64Array(d);
  for (let f = 0; f < d; f++) {
    let mean = 0;
    for (let r = 0; r < t; r++) mean += data[r * d + f] as number;
    mean = t > 0 ? mean / t : 0;
    let ss = 0;
    for (let r = 0; r < t; r++) {
      const diff = (data[r * d + f] as number) - mean;
      ss += diff * diff;
    }
    const variance = t > 0 ? ss / t : 0;
    floors[f] = Math.max(RELATIVE_VARIANCE_FLOOR * variance, ABSOLUTE_VARIANCE_FLOOR);
  }
  return floors;
}
