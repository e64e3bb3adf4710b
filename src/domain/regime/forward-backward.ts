import type { HmmParams, Observations } from "./hmm-params.js";
import { emissionConstants, type EmissionConstants } from "./log-emissions.js";
import { FLUSH_BELOW, LOG_FLUSH_BELOW } from "./underflow.js";

/**
 * Buffers for one sequence length and state count, allocated once and reused by every EM
 * iteration so the hot loops allocate nothing.
 */
export class ForwardBackwardWorkspace {
  /** Emission log-densities, then (after the forward pass) exp(logB − rowMax), t×k. */
  readonly b: Float64Array;
  /** Row maxima of the log-densities, length t. */
  readonly rowMax: Float64Array;
  /** Filtered posteriors P(s_t | x_1..t), t×k (the normalised forward variables). */
  readonly alpha: Float64Array;
  /** Scaled backward variables, t×k. */
  readonly beta: Float64Array;
  /** Scaling factors c_t = P(x_t | x_1..t−1) / exp(rowMax_t), length t. */
  readonly scale: Float64Array;
  /** Smoothed posteriors P(s_t | x_1..T), t×k. */
  readonly gamma: Float64Array;
  /** Per-state emission constants, refreshed at the start of every forward pass. */
  private consts: EmissionConstants | null = null;
  private readonly tmp: Float64Array;

  constructor(
    readonly t: number,
    readonly k: number,
  ) {
    this.b = new Float64Array(t * k);
    this.rowMax = new Float64Array(t);
    this.alpha = new Float64Array(t * k);
    this.beta = new Float64Array(t * k);
    this.scale = new Float64Array(t);
    this.gamma = new Float64Array(t * k);
    this.tmp = new Float64Array(k);
  }

  /** The emission constants of p, into buffers reused across calls (sized on first use). */
  constantsFor(p: HmmParams): EmissionConstants {
    if (this.consts === null || this.consts.negHalfInvVar.length !== p.k * p.d) {
      this.consts = { logNorm: new Float64Array(p.k), negHalfInvVar: new Float64Array(p.k * p.d) };
    }
    return emissionConstants(p, this.consts);
  }

  /** Scratch of length k for the backward pass. */
  get scratch(): Float64Array {
    return this.tmp;
  }
}

/**
 * Module-local copies of the flush thresholds: read through an import binding they cost a
 * property getter per cell under tsx/CommonJS interop (15% of a Baum-Welch fit in a profile).
 */
const FLUSH = FLUSH_BELOW;
const LOG_FLUSH = LOG_FLUSH_BELOW;

/**
 * Scaled forward pass (Rabiner's scaling) fused with the emissions: per bar, the log-densities
 * of the k states (per-state constants precomputed once per call, emissionConstants), their
 * maximum, exp(logB − max) into ws.b (the backward pass reuses it), then the forward step.
 * One sweep over the data, and the row is still in registers/L1 when it is used. Shifting by the
 * row maximum keeps at least one entry at 1, so an outlier bar far from every state (log-density
 * −10⁵) cannot underflow the whole row to zero; the shift is added back into the log-likelihood.
 * Leaves the filtered posteriors in ws.alpha and returns log P(x_1..T). Each alpha row uses only
 * bars up to it, so it is also the online filter's answer at that bar: no look-ahead.
 */
function forwardFused(p: HmmParams, obs: Observations, ws: ForwardBackwardWorkspace): number {
  const { k } = p;
  const { t, d, data } = obs;
  if (d !== p.d) throw new RangeError(`observations have ${d} features, model has ${p.d}`);
  const { logNorm, negHalfInvVar: nh } = ws.constantsFor(p);
  const means = p.means;
  const { b, alpha, scale, rowMax } = ws;
  const A = p.transMat;
  const start = p.startProb;
  let loglik = 0;
  for (let r = 0; r < t; r++) {
    const cur = r * k;
    const xb = r * d;
    let m = -Infinity;
    if (d === 4) {
      // The service's feature count (features.ts): the bar's features stay in registers across
      // the states. Same operations in the same order as the general loop, so the same bits.
      const x0 = data[xb] as number;
      const x1 = data[xb + 1] as number;
      const x2 = data[xb + 2] as number;
      const x3 = data[xb + 3] as number;
      for (let s = 0; s < k; s++) {
        const sb = s * 4;
        const d0 = x0 - (means[sb] as number);
        const d1 = x1 - (means[sb + 1] as number);
        const d2 = x2 - (means[sb + 2] as number);
        const d3 = x3 - (means[sb + 3] as number);
        const acc =
          (logNorm[s] as number) +
          (nh[sb] as number) * d0 * d0 +
          (nh[sb + 1] as number) * d1 * d1 +
          (nh[sb + 2] as number) * d2 * d2 +
          (nh[sb + 3] as number) * d3 * d3;
        b[cur + s] = acc;
        if (acc > m) m = acc;
      }
    } else {
      for (let s = 0; s < k; s++) {
        let acc = logNorm[s] as number;
        const sb = s * d;
        for (let f = 0; f < d; f++) {
          const diff = (data[xb + f] as number) - (means[sb + f] as number);
          acc += (nh[sb + f] as number) * diff * diff;
        }
        b[cur + s] = acc;
        if (acc > m) m = acc;
      }
    }
    // A row of −∞ (impossible under every state) stays −∞; the caller sees loglik −∞.
    if (m === -Infinity) m = 0;
    rowMax[r] = m;
    for (let s = 0; s < k; s++) {
      const x = (b[cur + s] as number) - m;
      b[cur + s] = x < LOG_FLUSH ? 0 : Math.exp(x);
    }
    let c = 0;
    if (r === 0) {
      for (let s = 0; s < k; s++) {
        const v = (start[s] as number) * (b[s] as number);
        alpha[s] = v;
        c += v;
      }
    } else {
      const prev = cur - k;
      // Four target states at a time: each α_{r−1}(i) is loaded once per four products. Every
      // sum still runs over i in order, so the bits are those of the one-state loop below.
      let j = 0;
      for (; j + 3 < k; j += 4) {
        let acc0 = 0;
        let acc1 = 0;
        let acc2 = 0;
        let acc3 = 0;
        for (let i = 0; i < k; i++) {
          const a = alpha[prev + i] as number;
          const row = i * k + j;
          acc0 += a * (A[row] as number);
          acc1 += a * (A[row + 1] as number);
          acc2 += a * (A[row + 2] as number);
          acc3 += a * (A[row + 3] as number);
        }
        const v0 = acc0 * (b[cur + j] as number);
        const v1 = acc1 * (b[cur + j + 1] as number);
        const v2 = acc2 * (b[cur + j + 2] as number);
        const v3 = acc3 * (b[cur + j + 3] as number);
        alpha[cur + j] = v0;
        alpha[cur + j + 1] = v1;
        alpha[cur + j + 2] = v2;
        alpha[cur + j + 3] = v3;
        c += v0;
        c += v1;
        c += v2;
        c += v3;
      }
      for (; j < k; j++) {
        let acc = 0;
        for (let i = 0; i < k; i++) acc += (alpha[prev + i] as number) * (A[i * k + j] as number);
        const v = acc * (b[cur + j] as number);
        alpha[cur + j] = v;
        c += v;
      }
    }
    if (!(c > 0)) return -Infinity;
    const inv = 1 / c;
    // Flushing (underflow.ts) keeps later products out of the slow subnormal range.
    for (let j = 0; j < k; j++) {
      const v = (alpha[cur + j] as number) * inv;
      alpha[cur + j] = v < FLUSH ? 0 : v;
    }
    scale[r] = c;
    loglik += Math.log(c) + m;
  }
  return loglik;
}

/**
 * Scaled backward pass, then the smoothed posteriors γ = α·β. With Rabiner's scaling every γ
 * row already sums to 1 up to rounding; it is renormalised anyway. (Baum-Welch does not use
 * this: em-statistics.ts runs its own backward sweep straight into the M-step sums.)
 */
function backwardScaled(p: HmmParams, ws: ForwardBackwardWorkspace, t: number): void {
  const { k } = p;
  const { b, beta, scale, gamma, alpha } = ws;
  const A = p.transMat;
  const tmp = ws.scratch;
  const last = (t - 1) * k;
  for (let s = 0; s < k; s++) beta[last + s] = 1;
  for (let r = t - 2; r >= 0; r--) {
    const cur = r * k;
    const nxt = (r + 1) * k;
    const invC = 1 / (scale[r + 1] as number);
    for (let j = 0; j < k; j++) {
      const v = (b[nxt + j] as number) * (beta[nxt + j] as number) * invC;
      tmp[j] = v < FLUSH ? 0 : v;
    }
    for (let i = 0; i < k; i++) {
      const rowA = i * k;
      let acc = 0;
      for (let j = 0; j < k; j++) acc += (A[rowA + j] as number) * (tmp[j] as number);
      beta[cur + i] = acc;
    }
  }
  for (let r = 0; r < t; r++) {
    const base = r * k;
    let sum = 0;
    for (let s = 0; s < k; s++) {
      const g = (alpha[base + s] as number) * (beta[base + s] as number);
      gamma[base + s] = g;
      sum += g;
    }
    const inv = sum > 0 ? 1 / sum : 0;
    for (let s = 0; s < k; s++) gamma[base + s] = (gamma[base + s] as number) * inv;
  }
}

/**
 * Forward and backward into a reused workspace: returns log P(x_1..T); ws.alpha holds the
 * filtered and ws.gamma the smoothed posteriors.
 */
export function forwardBackwardInto(p: HmmParams, obs: Observations, ws: ForwardBackwardWorkspace): number {
  if (ws.t < obs.t || ws.k !== p.k) throw new RangeError("workspace does not fit the sequence");
  if (obs.t === 0) return 0;
  const loglik = forwardFused(p, obs, ws);
  if (loglik === -Infinity) return loglik;
  backwardScaled(p, ws, obs.t);
  return loglik;
}

/** The forward pass alone: log-likelihood, filtered posteriors in ws.alpha, scaled emissions in ws.b. */
export function forwardInto(p: HmmParams, obs: Observations, ws: ForwardBackwardWorkspace): number {
  if (ws.t < obs.t || ws.k !== p.k) throw new RangeError("workspace does not fit the sequence");
  if (obs.t === 0) return 0;
  return forwardFused(p, obs, ws);
}

export interface Posteriors {
  readonly loglik: number;
  /** P(s_t | x_1..t), t×k. */
  readonly filtered: Float64Array;
  /** P(s_t | x_1..T), t×k. */
  readonly smoothed: Float64Array;
}

/** Convenience wrapper that allocates its own workspace (scoring, tests, the CLI). */
export function posteriors(p: HmmParams, obs: Observations): Posteriors {
  const ws = new ForwardBackwardWorkspace(obs.t, p.k);
  const loglik = forwardBackwardInto(p, obs, ws);
  return { loglik, filtered: ws.alpha.slice(0, obs.t * p.k), smoothed: ws.gamma.slice(0, obs.t * p.k) };
}

export function logLikelihood(p: HmmParams, obs: Observations): number {
  return forwardInto(p, obs, new ForwardBackwardWorkspace(obs.t, p.k));
}
