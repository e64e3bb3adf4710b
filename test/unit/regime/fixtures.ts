import type { HmmParams } from "../../../src/domain/regime/hmm-params.js";
import { SeededRandom } from "../../../src/domain/regime/prng.js";

export function params(
  startProb: number[],
  transMat: number[][],
  means: number[][],
  vars: number[][],
): HmmParams {
  return {
    k: startProb.length,
    d: means[0]?.length ?? 0,
    startProb: Float64Array.from(startProb),
    transMat: Float64Array.from(transMat.flat()),
    means: Float64Array.from(means.flat()),
    vars: Float64Array.from(vars.flat()),
  };
}

/** A random but valid model; `stay` biases the diagonal so sampled sequences have regimes. */
export function randomParams(k: number, d: number, seed: number, stay = 0.5): HmmParams {
  const rng = new SeededRandom(seed);
  const dist = (n: number): number[] => {
    const raw = Array.from({ length: n }, () => 0.05 + rng.next());
    const sum = raw.reduce((a, b) => a + b, 0);
    return raw.map((x) => x / sum);
  };
  const transMat = Array.from({ length: k }, (_, i) => dist(k).map((x, j) => x * (1 - stay) + (i === j ? stay : 0)));
  const means = Array.from({ length: k }, () => Array.from({ length: d }, () => 3 * rng.normal()));
  const vars = Array.from({ length: k }, () => Array.from({ length: d }, () => 0.2 + 2 * rng.next()));
  return params(dist(k), transMat, means, vars);
}
