import type { HmmParams, Observations } from "./hmm-params.js";
import type { ForwardBackwardWorkspace } from "./forward-backward.js";
import { FLUSH_BELOW } from "./underflow.js";

/** Module-local: an import binding costs a getter per read under tsx (forward-backward.ts). */
const FLUSH = FLUSH_BELOW;

/** Expected sufficient statistics of one E-step (β is kept for two bars only). */
export class EmStatistics {
  /** γ_0: the smoothed posterior of the first bar (next start distribution). */
  readonly first: Float64Array;
  /** Σ_t α_t(i)·w_{t+1}(j) with w = b·β/c; ξ sums are transMat ∘ this. */
  readonly pairs: Float64Array;
  /** Σ_t γ_t(s). */
  readonly occupancy: Float64Array;
  /** Σ_t γ_t(s)·(x_t − m_s) and Σ_t γ_t(s)·(x_t − m_s)², around shift m (k×d). */
  readonly sums: Float64Array;
  readonly squares: Float64Array;
  readonly shift: Float64Array;
  private readonly betaCur: Float64Array;
  private readonly betaPrev: Float64Array;
  /** w_r of the bar being stepped back over, length k. */
  private readonly weighted: Float64Array;
  /** γ and w per state over all bars (k×t, state-major), sized on first use. */
  private readonly cols: Float64Array[] = [];

  constructor(
    readonly k: number,
    readonly d: number,
  ) {
    this.first = new Float64Array(k);
    this.pairs = new Float64Array(k * k);
    this.occupancy = new Float64Array(k);
    this.sums = new Float64Array(k * d);
    this.squares = new Float64Array(k * d);
    this.shift = new Float64Array(k * d);
    this.betaCur = new Float64Array(k);
    this.betaPrev = new Float64Array(k);
    this.weighted = new Float64Array(k);
  }

  /** Buffer n, reallocated only when the sequence length changes (not per iteration). */
  private columns(n: number, size: number): Float64Array {
    const have = this.cols[n];
    if (have !== undefined && have.length === size) return have;
    const fresh = new Float64Array(size);
    this.cols[n] = fresh;
    return fresh;
  }

  /**
   * The backward sweep after `forwardInto`, then the sums the M-step needs. The sweep steps β
   * back one bar at a time (β needs only two rows) and writes γ_r = α_r·β_r and
   * w_r = b_r·β_r/c_r into state-major k×t buffers. The sums are then dot products over the bars
   * with their accumulators in registers: Σ_r α_{r−1}(i)·w_r(j) for the transitions (four j per
   * pass) and Σ_r γ_r(s), Σ_r γ_r(s)·(x_r − m_s)^{1,2} for the emissions (one pass per state).
   * Accumulating them inside the sweep instead (a load and a store of a sum per term per bar) made
   * this twice as slow in a profile. Every sum runs over r from the last bar down, the order the
   * fused sweep used, so the fitted parameters are bit-identical to it. Sums are taken around the
   * current means (`shift`) so variances do not cancel catastrophically (baum-welch.ts).
   */
  accumulate(p: HmmParams, obs: Observations, ws: ForwardBackwardWorkspace): void {
    const t = obs.t;
    this.shift.set(p.means);
    const gT = this.columns(0, this.k * t);
    const wT = this.columns(1, this.k * t);
    this.backwardSweep(p, ws, t, gT, wT);
    this.transitionSums(t, wT, ws.alpha);
    this.emissionSums(obs, gT);
  }

  /** β from the last bar back, writing γ and w state-major (see accumulate). */
  private backwardSweep(p: HmmParams, ws: ForwardBackwardWorkspace, t: number, gT: Float64Array, wT: Float64Array): void {
    const { k } = this;
    const { b, alpha, scale } = ws;
    const w = this.weighted;
    const A = p.transMat;
    let beta = this.betaCur;
    let betaBack = this.betaPrev;
    beta.fill(1);
    for (let r = t - 1; r >= 0; r--) {
      const cur = r * k;
      let norm = 0;
      for (let s = 0; s < k; s++) norm += (alpha[cur + s] as number) * (beta[s] as number);
      const invNorm = norm > 0 ? 1 / norm : 0;
      if (r === 0) {
        for (let s = 0; s < k; s++) gT[s * t] = (alpha[s] as number) * (beta[s] as number) * invNorm;
        break;
      }
      const invC = 1 / (scale[r] as number);
      // γ_r and w_r in one loop: both scale β_r(s).
      for (let j = 0; j < k; j++) {
        const bj = beta[j] as number;
        gT[j * t + r] = (alpha[cur + j] as number) * bj * invNorm;
        const v = (b[cur + j] as number) * bj * invC;
        const wj = v < FLUSH ? 0 : v;
        wT[j * t + r] = wj;
        w[j] = wj;
      }
      // Four source states at a time (each w_r(j) loaded once per four products), sums over j
      // in order as in the one-state loop after it.
      let i = 0;
      for (; i + 3 < k; i += 4) {
        const r0 = i * k;
        let acc0 = 0;
        let acc1 = 0;
        let acc2 = 0;
        let acc3 = 0;
        for (let j = 0; j < k; j++) {
          const wj = w[j] as number;
          acc0 += (A[r0 + j] as number) * wj;
          acc1 += (A[r0 + k + j] as number) * wj;
          acc2 += (A[r0 + 2 * k + j] as number) * wj;
          acc3 += (A[r0 + 3 * k + j] as number) * wj;
        }
        betaBack[i] = acc0;
        betaBack[i + 1] = acc1;
        betaBack[i + 2] = acc2;
        betaBack[i + 3] = acc3;
      }
      for (; i < k; i++) {
        const rowA = i * k;
        let acc = 0;
        for (let j = 0; j < k; j++) acc += (A[rowA + j] as number) * (w[j] as number);
        betaBack[i] = acc;
      }
      const swap = beta;
      beta = betaBack;
      betaBack = swap;
    }
    for (let s = 0; s < k; s++) this.first[s] = gT[s * t] as number;
  }

  /** pairs(i, j) = Σ_r α_{r−1}(i)·w_r(j), four j at a time (each α loaded once per four products). */
  private transitionSums(t: number, wT: Float64Array, alpha: Float64Array): void {
    const { k, pairs } = this;
    for (let i = 0; i < k; i++) {
      let j = 0;
      for (; j + 3 < k; j += 4) {
        const w0 = j * t;
        let acc0 = 0;
        let acc1 = 0;
        let acc2 = 0;
        let acc3 = 0;
        for (let r = t - 1; r >= 1; r--) {
          const a = alpha[(r - 1) * k + i] as number;
          acc0 += a * (wT[w0 + r] as number);
          acc1 += a * (wT[w0 + t + r] as number);
          acc2 += a * (wT[w0 + 2 * t + r] as number);
          acc3 += a * (wT[w0 + 3 * t + r] as number);
        }
        pairs[i * k + j] = acc0;
        pairs[i * k + j + 1] = acc1;
        pairs[i * k + j + 2] = acc2;
        pairs[i * k + j + 3] = acc3;
      }
      for (; j < k; j++) {
        const wj = j * t;
        let acc = 0;
        for (let r = t - 1; r >= 1; r--) acc += (alpha[(r - 1) * k + i] as number) * (wT[wj + r] as number);
        pairs[i * k + j] = acc;
      }
    }
  }

  /** Occupancy and the emission sums around `shift`, one pass over the bars per state. */
  private emissionSums(obs: Observations, gT: Float64Array): void {
    const { k, d, occupancy, sums, squares, shift } = this;
    const { data, t } = obs;
    for (let s = 0; s < k; s++) {
      const gs = s * t;
      if (d === 4) {
        // The service's feature count: one pass over the bars for all four features, each sum
        // in the same order as the general loop below.
        const m0 = shift[s * 4] as number;
        const m1 = shift[s * 4 + 1] as number;
        const m2 = shift[s * 4 + 2] as number;
        const m3 = shift[s * 4 + 3] as number;
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        let s3 = 0;
        let q0 = 0;
        let q1 = 0;
        let q2 = 0;
        let q3 = 0;
        let n4 = 0;
        for (let r = t - 1; r >= 0; r--) {
          const g = gT[gs + r] as number;
          n4 += g;
          const x = r * 4;
          const e0 = (data[x] as number) - m0;
          const e1 = (data[x + 1] as number) - m1;
          const e2 = (data[x + 2] as number) - m2;
          const e3 = (data[x + 3] as number) - m3;
          const g0 = g * e0;
          const g1 = g * e1;
          const g2 = g * e2;
          const g3 = g * e3;
          s0 += g0;
          s1 += g1;
          s2 += g2;
          s3 += g3;
          q0 += g0 * e0;
          q1 += g1 * e1;
          q2 += g2 * e2;
          q3 += g3 * e3;
        }
        occupancy[s] = n4;
        const o = s * 4;
        sums[o] = s0;
        sums[o + 1] = s1;
        sums[o + 2] = s2;
        sums[o + 3] = s3;
        squares[o] = q0;
        squares[o + 1] = q1;
        squares[o + 2] = q2;
        squares[o + 3] = q3;
        continue;
      }
      let n = 0;
      for (let r = t - 1; r >= 0; r--) n += gT[gs + r] as number;
      occupancy[s] = n;
      for (let f = 0; f < d; f++) {
        const m = shift[s * d + f] as number;
        let sum = 0;
        let sq = 0;
        for (let r = t - 1; r >= 0; r--) {
          const g = gT[gs + r] as number;
          const diff = (data[r * d + f] as number) - m;
          const gd = g * diff;
          sum += gd;
          sq += gd * diff;
        }
        sums[s * d + f] = sum;
        squares[s * d + f] = sq;
      }
    }
  }
}
