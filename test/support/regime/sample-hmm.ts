import type { HmmParams, Observations } from "../../../src/domain/regime/hmm-params.js";
import { SeededRandom } from "../../../src/domain/regime/prng.js";

export interface HmmSample {
  readonly obs: Observations;
  readonly states: Int32Array;
}

/**
 * Draws a seeded sequence from a known model: the ground truth that parameter-recovery tests and
 * the regime CLI tests fit against.
 */
export function sampleHmm(p: HmmParams, length: number, seed: number): HmmSample {
  const { k, d } = p;
  const rng = new SeededRandom(seed);
  const data = new Float64Array(length * d);
  const states = new Int32Array(length);
  let s = rng.categorical(p.startProb, 0, k);
  for (let r = 0; r < length; r++) {
    if (r > 0) s = rng.categorical(p.transMat, s * k, k);
    states[r] = s;
    for (let f = 0; f < d; f++) {
      data[r * d + f] = (p.means[s * d + f] as number) + Math.sqrt(p.vars[s * d + f] as number) * rng.normal();
    }
  }
  return { obs: { t: length, d, data }, states };
}
