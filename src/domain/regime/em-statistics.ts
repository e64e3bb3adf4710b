import type { HmmParams, Observations } from "./hmm-params.js";
import type { ForwardBackwardWorkspace } from "./forward-backward.js";
import { FLUSH_BELOW } from "./underflow.js";

/** Expected sufficient statistics of one E-step, accumulated without storing β or γ. */
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
  private readonly weighted: Float64Array;

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

  /**
   * The backward sweep after `forwardInto`, fused with everything the M-step needs: at bar r it
   * forms γ_r = α_r·β_r, adds it into the occupancy and the emission sums with x_r, and steps β
   * back one bar while adding α_{r−1} ⊗ w_r into the transition sums. One pass over the data and
   * no t×k β or γ arrays: the E-step of a year of hours stays in cache. Sums are taken around
   * the current means (`shift`) so variances do not cancel catastrophically (baum-welch.ts).
   */
  accumulate(p: HmmParams, obs: Observations, ws: ForwardBackwardWorkspace): void {
    const { k, d } = this;
    const { b, alpha, scale } = ws;
    const { data } = obs;
    const t = obs.t;
    const A = p.transMat;
    const { pairs, occupancy, sums, squares, shift, weighted } = this;
    let beta = this.betaCur;
    let betaBack = this.betaPrev;
    shift.set(p.means);
    pairs.fill(0);
    occupancy.fill(0);
    sums.fill(0);
    squares.fill(0);
    beta.fill(1);
    for (let r = t - 1; r >= 0; r--) {
      const cur = r * k;
      const xb = r * d;
      let norm = 0;
      for (let s = 0; s < k; s++) norm += (alpha[cur + s] as number) * (beta[s] as number);
      const invNorm = norm > 0 ? 1 / norm : 0;
      for (let s = 0; s < k; s++) {
        const g = (alpha[cur + s] as number) * (beta[s] as number) * invNorm;
        if (r === 0) this.first[s] = g;
        if (g === 0) continue;
        occupancy[s] = (occupancy[s] as number) + g;
        const sb = s * d;
        for (let f = 0; f < d; f++) {
          const diff = (data[xb + f] as number) - (shift[sb + f] as number);
          const gd = g * diff;
          sums[sb + f] = (sums[sb + f] as number) + gd;
          squares[sb + f] = (squares[sb + f] as number) + gd * diff;
        }
      }
      if (r === 0) break;
      const invC = 1 / (scale[r] as number);
      for (let j = 0; j < k; j++) {
        const v = (b[cur + j] as number) * (beta[j] as number) * invC;
        weighted[j] = v < FLUSH_BELOW ? 0 : v;
      }
      const prev = cur - k;
      for (let i = 0; i < k; i++) {
        const rowA = i * k;
        const a = alpha[prev + i] as number;
        let acc = 0;
        for (let j = 0; j < k; j++) {
          const w = weighted[j] as number;
          acc += (A[rowA + j] as number) * w;
          pairs[rowA + j] = (pairs[rowA + j] as number) + a * w;
        }
        betaBack[i] = acc;
      }
      const swap = beta;
      beta = betaBack;
      betaBack = swap;
    }
  }
}
