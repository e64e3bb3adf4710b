import type { HmmParams, Observations } from "./hmm-params.js";
import { SeededRandom } from "./prng.js";

/** Prior weight on staying in a state in the initial transition matrix: regimes persist. */
const INITIAL_STAY_PROBABILITY = 0.9;
const KMEANS_ROUNDS = 10;

/**
 * Deterministic seeded starting point for Baum-Welch: k-means++ seeding and a few Lloyd rounds
 * give each state a distinct region of feature space, which EM then refines. Random means alone
 * often leave two states on the same cluster and one never used.
 */
export function initialParams(obs: Observations, k: number, seed: number, floors: Float64Array): HmmParams {
  const { t, d, data } = obs;
  if (t === 0) throw new RangeError("cannot initialise from an empty sequence");
  const rng = new SeededRandom(seed);
  const means = new Float64Array(k * d);
  const dist = new Float64Array(t).fill(Infinity);

  // k-means++: each next centre drawn with probability proportional to squared distance.
  let chosen = rng.int(t);
  for (let s = 0; s < k; s++) {
    means.set(data.subarray(chosen * d, chosen * d + d), s * d);
    let total = 0;
    for (let r = 0; r < t; r++) {
      let sq = 0;
      for (let f = 0; f < d; f++) {
        const diff = (data[r * d + f] as number) - (means[s * d + f] as number);
        sq += diff * diff;
      }
      if (sq < (dist[r] as number)) dist[r] = sq;
      total += dist[r] as number;
    }
    if (total > 0) {
      let u = rng.next() * total;
      chosen = t - 1;
      for (let r = 0; r < t; r++) {
        u -= dist[r] as number;
        if (u < 0) {
          chosen = r;
          break;
        }
      }
    } else {
      chosen = rng.int(t);
    }
  }

  const assign = new Int32Array(t);
  const counts = new Float64Array(k);
  const sums = new Float64Array(k * d);
  for (let round = 0; round < KMEANS_ROUNDS; round++) {
    nearestCentres(obs, means, k, assign);
    counts.fill(0);
    sums.fill(0);
    for (let r = 0; r < t; r++) {
      const s = assign[r] as number;
      counts[s] = (counts[s] as number) + 1;
      for (let f = 0; f < d; f++) sums[s * d + f] = (sums[s * d + f] as number) + (data[r * d + f] as number);
    }
    for (let s = 0; s < k; s++) {
      const n = counts[s] as number;
      if (n > 0) for (let f = 0; f < d; f++) means[s * d + f] = (sums[s * d + f] as number) / n;
    }
  }
  nearestCentres(obs, means, k, assign);

  // Variances per cluster, two-pass around the final means; empty or tiny clusters take the
  // overall variance so no state starts at the floor.
  const vars = new Float64Array(k * d);
  const overall = overallVariance(obs);
  counts.fill(0);
  for (let r = 0; r < t; r++) {
    const s = assign[r] as number;
    counts[s] = (counts[s] as number) + 1;
    for (let f = 0; f < d; f++) {
      const diff = (data[r * d + f] as number) - (means[s * d + f] as number);
      vars[s * d + f] = (vars[s * d + f] as number) + diff * diff;
    }
  }
  for (let s = 0; s < k; s++) {
    const n = counts[s] as number;
    for (let f = 0; f < d; f++) {
      const v = n >= 2 ? (vars[s * d + f] as number) / n : (overall[f] as number);
      vars[s * d + f] = Math.max(v, floors[f] as number);
    }
  }

  const startProb = new Float64Array(k).fill(1 / k);
  const transMat = new Float64Array(k * k);
  const off = k > 1 ? (1 - INITIAL_STAY_PROBABILITY) / (k - 1) : 0;
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) transMat[i * k + j] = k === 1 ? 1 : i === j ? INITIAL_STAY_PROBABILITY : off;
  return { k, d, startProb, transMat, means, vars };
}

function nearestCentres(obs: Observations, means: Float64Array, k: number, assign: Int32Array): void {
  const { t, d, data } = obs;
  for (let r = 0; r < t; r++) {
    let best = Infinity;
    let arg = 0;
    for (let s = 0; s < k; s++) {
      let sq = 0;
      for (let f = 0; f < d; f++) {
        const diff = (data[r * d + f] as number) - (means[s * d + f] as number);
        sq += diff * diff;
      }
      if (sq < best) {
        best = sq;
        arg = s;
      }
    }
    assign[r] = arg;
  }
}

function overallVariance(obs: Observations): Float64Array {
  const { t, d, data } = obs;
  const out = new Float64Array(d);
  for (let f = 0; f < d; f++) {
    let mean = 0;
    for (let r = 0; r < t; r++) mean += data[r * d + f] as number;
    mean /= t;
    let ss = 0;
    for (let r = 0; r < t; r++) ss += ((data[r * d + f] as number) - mean) ** 2;
    out[f] = ss / t;
  }
  return out;
}
