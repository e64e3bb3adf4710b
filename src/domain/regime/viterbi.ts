import type { HmmParams, Observations } from "./hmm-params.js";
import { logEmissions } from "./log-emissions.js";

export interface ViterbiResult {
  /** log P(x_1..T, best path). */
  readonly logProb: number;
  /** The most probable state sequence. */
  readonly path: Int32Array;
}

/**
 * Most probable state path, entirely in log space (products of thousands of probabilities
 * underflow; sums of logs do not). Ties go to the lowest state index, as in hmmlearn, so the
 * path is deterministic.
 */
export function viterbi(p: HmmParams, obs: Observations): ViterbiResult {
  const { k } = p;
  const t = obs.t;
  if (t === 0) return { logProb: 0, path: new Int32Array(0) };
  const logB = logEmissions(p, obs);
  const logA = new Float64Array(k * k);
  for (let i = 0; i < k * k; i++) logA[i] = Math.log(p.transMat[i] as number);
  const back = new Int32Array(t * k);
  let prev = new Float64Array(k);
  let cur = new Float64Array(k);
  for (let s = 0; s < k; s++) prev[s] = Math.log(p.startProb[s] as number) + (logB[s] as number);
  for (let r = 1; r < t; r++) {
    for (let j = 0; j < k; j++) {
      let best = -Infinity;
      let arg = 0;
      for (let i = 0; i < k; i++) {
        const v = (prev[i] as number) + (logA[i * k + j] as number);
        if (v > best) {
          best = v;
          arg = i;
        }
      }
      cur[j] = best + (logB[r * k + j] as number);
      back[r * k + j] = arg;
    }
    const swap = prev;
    prev = cur;
    cur = swap;
  }
  let logProb = -Infinity;
  let state = 0;
  for (let s = 0; s < k; s++) {
    if ((prev[s] as number) > logProb) {
      logProb = prev[s] as number;
      state = s;
    }
  }
  const path = new Int32Array(t);
  path[t - 1] = state;
  for (let r = t - 1; r > 0; r--) {
    state = back[r * k + state] as number;
    path[r - 1] = state;
  }
  return { logProb, path };
}
