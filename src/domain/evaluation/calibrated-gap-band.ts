import { SeededRandom } from "../regime/prng.js";
import { roundTo } from "../numbers/round-to.js";
import { normalQuantile } from "./normal-quantile.js";
import { mean, quantileSorted } from "./statistics.js";
import type { Steps } from "./steps.js";

const HOUR = 3_600_000;

/**
 * Draws of the calibrated-forecaster null (fixed seed: the band is a pure function of the calls).
 * 4,000: with 400 the 95th percentile moved by ±0.003 between seeds (a review's 50 batches of 400
 * ranged 0.0607–0.0672 for TAO), as much as the gaps it is read against.
 */
export const NULL_DRAWS = 4_000;

/** One directional call as the band reads it: its hour, its side and its published confidence. */
export interface BandCall {
  readonly at: number;
  readonly c: number;
  readonly bullish: boolean;
}

export interface GapBand {
  readonly median: number;
  readonly p95: number;
}

/**
 * Increments of the simulated walk are drawn from this table: the standard normal's quantiles at
 * the midpoints of 4,096 equal slices of probability, rescaled to variance 1 exactly (the
 * midpoints miss the tails beyond ±3.6). Picked by 12 random bits, a step costs a table look-up
 * instead of a logarithm, a root and a sine; 24 of them sum to a move whose distribution is
 * normal to within far less than the draws' own noise.
 */
const NORMAL_TABLE_BITS = 12;
const TABLE_MASK = (1 << NORMAL_TABLE_BITS) - 1;

/** A call's place in the kernel: it hits when walk[plus] − walk[minus] < threshold. */
interface Kernel {
  readonly plus: Int32Array;
  readonly minus: Int32Array;
  readonly threshold: Float64Array;
}

/**
 * Median and 95th percentile of the quintile gap a perfectly calibrated forecaster would show on
 * these very calls (see `Reliability.quintileGapIfCalibrated`). `sorted` is ordered by confidence
 * and `bounds` cuts it into the quintiles, so the quintiles are the same calls in every draw;
 * only the hits change.
 *
 * Each draw simulates the price as a Gaussian random walk with one step an hour over the span, and
 * grades every call against that walk's move over its own `horizonHours` from its own hour,
 * exactly as the real calls are graded against the real price: a call at hour h and one at h + 3
 * share 21 of their 24 hours, whichever side of midnight they fall. A bullish call at confidence
 * c hits when the move is above −√H·Φ⁻¹(c), a bearish one when it is below √H·Φ⁻¹(c), so each
 * call hits with probability exactly c, and calls hit or miss together as much as their windows
 * overlap. (One coin per UTC day, the rule until the seventeenth session's audit, tied a day's
 * calls together completely and left 23:00's and 01:00's independent: the band came out about
 * 14 % too wide.) The walk is Gaussian: real returns have fat tails and volatility clusters,
 * which change how often a move crosses a threshold but not which calls share a move.
 *
 * The work per draw is one table look-up per simulated hour and one subtraction and compare per
 * call, with no branch on the outcome (`Number(hit)`: a branch that goes either way at random
 * cost five times as much). A step is one draw, a fraction of a millisecond for a year of calls.
 */
export function* calibratedGapBand(sorted: readonly BandCall[], bounds: readonly number[], horizonHours: number): Steps<GapBand | null> {
  const parts = bounds.length - 1;
  if (parts < 1 || sorted.length === 0) return null;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const x of sorted) {
    if (x.at < first) first = x.at;
    if (x.at > last) last = x.at;
  }
  const hours = Math.round((last - first) / HOUR) + horizonHours + 1;
  const scale = Math.sqrt(horizonHours);
  const kernels: Kernel[] = [];
  const meanC: number[] = [];
  // A day's map gives many calls one confidence: each distinct one is converted once.
  const thresholds = new Map<number, number>();
  for (let q = 0; q < parts; q++) {
    // In time order, so the walk is read front to back.
    const part = sorted.slice(bounds[q], bounds[q + 1]).sort((a, b) => a.at - b.at);
    const plus = new Int32Array(part.length);
    const minus = new Int32Array(part.length);
    const threshold = new Float64Array(part.length);
    for (const [i, x] of part.entries()) {
      const start = Math.round((x.at - first) / HOUR);
      // Bullish: hits when walk[end] − walk[start] > −t, i.e. walk[start] − walk[end] < t.
      plus[i] = x.bullish ? start : start + horizonHours;
      minus[i] = x.bullish ? start + horizonHours : start;
      let t = thresholds.get(x.c);
      if (t === undefined) thresholds.set(x.c, (t = scale * normalQuantile(x.c)));
      threshold[i] = t;
    }
    kernels.push({ plus, minus, threshold });
    meanC.push(mean(part.map((x) => x.c)) ?? 0);
    yield;
  }
  const normals = standardNormalTable();
  yield;
  const rng = new SeededRandom(16);
  // xorshift32, seeded by the reproducible generator: three shifts give 32 bits, two table indices.
  let bits = Math.floor(rng.next() * 0xffffffff) | 1;
  // One slot spare: the loop writes hours in pairs.
  const walk = new Float64Array(hours + 2);
  const draws: number[] = [];
  for (let k = 0; k < NULL_DRAWS; k++) {
    let level = 0;
    for (let t = 1; t <= hours; t += 2) {
      bits ^= bits << 13;
      bits ^= bits >>> 17;
      bits ^= bits << 5;
      const u = bits >>> 0;
      level += normals[u >>> (32 - NORMAL_TABLE_BITS)] as number;
      walk[t] = level;
      level += normals[u & TABLE_MASK] as number;
      walk[t + 1] = level;
    }
    let gap = 0;
    for (let q = 0; q < parts; q++) {
      const { plus, minus, threshold } = kernels[q] as Kernel;
      let hits = 0;
      for (let i = 0; i < plus.length; i++) hits += Number((walk[plus[i] as number] as number) - (walk[minus[i] as number] as number) < (threshold[i] as number));
      gap += Math.abs((meanC[q] as number) - hits / plus.length);
    }
    draws.push(gap / parts);
    yield;
  }
  draws.sort((a, b) => a - b);
  // NULL_DRAWS > 0 draws, so both quantiles exist.
  return { median: roundTo(quantileSorted(draws, 0.5) as number, 4), p95: roundTo(quantileSorted(draws, 0.95) as number, 4) };
}

function standardNormalTable(): Float64Array {
  const n = 1 << NORMAL_TABLE_BITS;
  const table = new Float64Array(n);
  let ss = 0;
  for (let i = 0; i < n; i++) {
    table[i] = normalQuantile((i + 0.5) / n);
    ss += (table[i] as number) ** 2;
  }
  // Symmetric about 0, so the mean is 0 already; only the variance needs the rescaling.
  const sd = Math.sqrt(ss / n);
  for (let i = 0; i < n; i++) table[i] = (table[i] as number) / sd;
  return table;
}
