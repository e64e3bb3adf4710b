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
    let gT: Float64Array;
    let wT: Float64Array;
    if (ws.kernel !== null) {
      // The service's 8-state model: the WebAssembly sweep (wasm/forward8x4-wat.ts), same sums.
      ws.kernel.backward(p, t);
      gT = ws.kernel.gamma;
      wT = ws.kernel.weights;
      for (let s = 0; s < this.k; s++) this.first[s] = gT[s * t] as number;
    } else {
      gT = this.columns(0, this.k * t);
      wT = this.columns(1, this.k * t);
      this.backwardSweep(p, ws, t, gT, wT);
    }
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
      if (k === 8) betaStep8(A, w, betaBack);
      else betaStep(k, A, w, betaBack);
      const swap = beta;
      beta = betaBack;
      betaBack = swap;
    }
    for (let s = 0; s < k; s++) this.first[s] = gT[s * t] as number;
  }

  /**
   * pairs(i, j) = Σ_r α_{r−1}(i)·w_r(j), two i by four j at a time: eight sums live at once
   * (each α and w loaded once per four or two products, half the passes over the bars of one i
   * at a time). Every sum runs over r in the same order as the one-pair loop: the same bits.
   */
  private transitionSums(t: number, wT: Float64Array, alpha: Float64Array): void {
    const { k, pairs } = this;
    let i = 0;
    if (k % 4 === 0) {
      for (; i + 1 < k; i += 2) {
        for (let j = 0; j < k; j += 4) {
          const w0 = j * t;
          const w1 = w0 + t;
          const w2 = w1 + t;
          const w3 = w2 + t;
          let p00 = 0;
          let p01 = 0;
          let p02 = 0;
          let p03 = 0;
          let p10 = 0;
          let p11 = 0;
          let p12 = 0;
          let p13 = 0;
          for (let r = t - 1; r >= 1; r--) {
            const ab = (r - 1) * k + i;
            const a0 = alpha[ab] as number;
            const a1 = alpha[ab + 1] as number;
            const x0 = wT[w0 + r] as number;
            const x1 = wT[w1 + r] as number;
            const x2 = wT[w2 + r] as number;
            const x3 = wT[w3 + r] as number;
            p00 += a0 * x0;
            p01 += a0 * x1;
            p02 += a0 * x2;
            p03 += a0 * x3;
            p10 += a1 * x0;
            p11 += a1 * x1;
            p12 += a1 * x2;
            p13 += a1 * x3;
          }
          const o = i * k + j;
          pairs[o] = p00;
          pairs[o + 1] = p01;
          pairs[o + 2] = p02;
          pairs[o + 3] = p03;
          pairs[o + k] = p10;
          pairs[o + k + 1] = p11;
          pairs[o + k + 2] = p12;
          pairs[o + k + 3] = p13;
        }
      }
    }
    // Other state counts: four j at a time, then the rest one by one.
    for (; i < k; i++) {
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

/**
 * β_{r−1}(i) = Σ_j A(i, j)·w_r(j) for any state count, four source states at a time (each
 * w_r(j) loaded once per four products); every sum runs over j in order, as in betaStep8.
 */
function betaStep(k: number, A: Float64Array, w: Float64Array, out: Float64Array): void {
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
    out[i] = acc0;
    out[i + 1] = acc1;
    out[i + 2] = acc2;
    out[i + 3] = acc3;
  }
  for (; i < k; i++) {
    const rowA = i * k;
    let acc = 0;
    for (let j = 0; j < k; j++) acc += (A[rowA + j] as number) * (w[j] as number);
    out[i] = acc;
  }
}

/** betaStep for eight states (the CLI's `--states 8`): all eight sums live at once (see forward-backward.ts recursion8). */
function betaStep8(A: Float64Array, w: Float64Array, out: Float64Array): void {
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  let b3 = 0;
  let b4 = 0;
  let b5 = 0;
  let b6 = 0;
  let b7 = 0;
  for (let j = 0; j < 8; j++) {
    const wj = w[j] as number;
    b0 += (A[j] as number) * wj;
    b1 += (A[8 + j] as number) * wj;
    b2 += (A[16 + j] as number) * wj;
    b3 += (A[24 + j] as number) * wj;
    b4 += (A[32 + j] as number) * wj;
    b5 += (A[40 + j] as number) * wj;
    b6 += (A[48 + j] as number) * wj;
    b7 += (A[56 + j] as number) * wj;
  }
  out[0] = b0;
  out[1] = b1;
  out[2] = b2;
  out[3] = b3;
  out[4] = b4;
  out[5] = b5;
  out[6] = b6;
  out[7] = b7;
}
