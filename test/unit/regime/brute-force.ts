import type { HmmParams, Observations } from "../../../src/domain/regime/hmm-params.js";

/** Density of a diagonal Gaussian, written plainly (no shared code with the module under test). */
function density(p: HmmParams, s: number, obs: Observations, r: number): number {
  let prod = 1;
  for (let f = 0; f < p.d; f++) {
    const v = p.vars[s * p.d + f] as number;
    const diff = (obs.data[r * obs.d + f] as number) - (p.means[s * p.d + f] as number);
    prod *= Math.exp((-0.5 * diff * diff) / v) / Math.sqrt(2 * Math.PI * v);
  }
  return prod;
}

export interface BruteForce {
  readonly likelihood: number;
  /** P(s_t | x_1..T) by summing over every path. */
  readonly smoothed: number[][];
  /** P(s_t | x_1..t): the same enumeration on each prefix. */
  readonly filtered: number[][];
  readonly bestPath: number[];
  readonly bestJoint: number;
}

/** Enumerates all k^T paths: the definition of the quantities, for short sequences. */
export function bruteForce(p: HmmParams, obs: Observations): BruteForce {
  const { k } = p;
  const t = obs.t;
  const smoothed = Array.from({ length: t }, () => new Array<number>(k).fill(0));
  const filtered = Array.from({ length: t }, () => new Array<number>(k).fill(0));
  const prefixTotals = new Array<number>(t).fill(0);
  let likelihood = 0;
  let bestJoint = -1;
  let bestPath: number[] = [];
  const total = k ** t;
  for (let code = 0; code < total; code++) {
    const path: number[] = [];
    let c = code;
    for (let r = 0; r < t; r++) {
      path.push(c % k);
      c = Math.floor(c / k);
    }
    let joint = 1;
    for (let r = 0; r < t; r++) {
      const s = path[r] as number;
      joint *= r === 0 ? (p.startProb[s] as number) : (p.transMat[(path[r - 1] as number) * k + s] as number);
      joint *= density(p, s, obs, r);
      // Each prefix path is counted k^(t-1-r) times over the full enumeration; only count it
      // when the remaining states are all 0, so each prefix appears once.
      if (path.slice(r + 1).every((x) => x === 0)) {
        (filtered[r] as number[])[s] = ((filtered[r] as number[])[s] as number) + joint;
        prefixTotals[r] = (prefixTotals[r] as number) + joint;
      }
    }
    likelihood += joint;
    for (let r = 0; r < t; r++) (smoothed[r] as number[])[path[r] as number] = ((smoothed[r] as number[])[path[r] as number] as number) + joint;
    if (joint > bestJoint) {
      bestJoint = joint;
      bestPath = path;
    }
  }
  return {
    likelihood,
    smoothed: smoothed.map((row) => row.map((x) => x / likelihood)),
    filtered: filtered.map((row, r) => row.map((x) => x / (prefixTotals[r] as number))),
    bestPath,
    bestJoint,
  };
}
