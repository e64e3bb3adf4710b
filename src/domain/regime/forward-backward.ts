import type { HmmParams, Observations } from "./hmm-params.js";
import { emissionConstants, type EmissionConstants } from "./log-emissions.js";
import { FLUSH_BELOW, LOG_FLUSH_BELOW } from "./underflow.js";
import { forward8x4Kernel, type Forward8x4Kernel } from "./wasm/forward-kernel.js";

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
  /** The WebAssembly forward pass for 8-state models (null for other state counts or without SIMD). */
  readonly kernel: Forward8x4Kernel | null;
  /** Per-state emission constants, refreshed at the start of every forward pass. */
  private consts: EmissionConstants | null = null;
  private readonly tmp: Float64Array;

  /** `kernel: "js"` keeps an 8-state model on the JS passes (tests compare the two). */
  constructor(
    readonly t: number,
    readonly k: number,
    kernel: "auto" | "js" = "auto",
  ) {
    // With the kernel, its outputs live in its memory and the JS passes read them in place.
    this.kernel = k === 8 && kernel === "auto" ? forward8x4Kernel(t) : null;
    this.b = this.kernel?.b ?? new Float64Array(t * k);
    this.rowMax = this.kernel?.rowMax ?? new Float64Array(t);
    this.alpha = this.kernel?.alpha ?? new Float64Array(t * k);
    this.scale = this.kernel?.scale ?? new Float64Array(t);
    this.beta = new Float64Array(t * k);
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
 * Scaled forward pass (Rabiner's scaling). Per bar: the emission log-densities, their row
 * maximum m, exp(logB − m) into ws.b (the backward pass reuses it), then the forward step.
 * Shifting by the row maximum keeps at least one entry at 1, so an outlier bar far from every
 * state (log-density −10⁵) cannot underflow the whole row to zero; the shift is added back into
 * the log-likelihood. Leaves the filtered posteriors in ws.alpha and returns log P(x_1..T). Each
 * alpha row uses only bars up to it, so it is also the online filter's answer at that bar: no
 * look-ahead.
 *
 * 8 states × 4 features (the regime bench's fits, the CLI's `--states 8`) runs in the WebAssembly SIMD kernel
 * (wasm/forward8x4-wat.ts: the same arithmetic, two states per instruction, and a polynomial
 * exp within 2 ulp of Math.exp). Other shapes run the JS passes below, three sweeps over the
 * bars, each a small loop V8 compiles tightly (one fused loop ran 1.5x slower than the three);
 * the service's own model (6 states) is one of them.
 */
function forwardScaled(p: HmmParams, obs: Observations, ws: ForwardBackwardWorkspace): number {
  if (obs.d !== p.d) throw new RangeError(`observations have ${obs.d} features, model has ${p.d}`);
  const consts = ws.constantsFor(p);
  if (ws.kernel !== null && obs.d === 4) {
    if (ws.kernel.forward(p, consts, obs) < obs.t) return -Infinity;
    return logLikelihoodOf(obs.t, ws.scale, ws.rowMax);
  }
  const { logNorm, negHalfInvVar } = consts;
  if (obs.d === 4) emissionRows4(obs.t, p.k, obs.data, p.means, logNorm, negHalfInvVar, ws.b, ws.rowMax);
  else emissionRows(obs.t, p.k, obs.d, obs.data, p.means, logNorm, negHalfInvVar, ws.b, ws.rowMax);
  expRows(obs.t, p.k, ws.b, ws.rowMax);
  return p.k === 8 ? recursion8(obs.t, p, ws) : recursion(obs.t, p, ws);
}

/** log P(x_1..T) = Σ_r (log c_r + m_r), summed in bar order as the JS recursions do. */
function logLikelihoodOf(t: number, scale: Float64Array, rowMax: Float64Array): number {
  let loglik = Math.log(scale[0] as number) + (rowMax[0] as number);
  for (let r = 1; r < t; r++) loglik += Math.log(scale[r] as number) + (rowMax[r] as number);
  return loglik;
}

/**
 * Log-densities of the service's four features (features.ts): the bar's features stay in
 * registers across the states. Same operations in the same order as emissionRows, so the same bits.
 */
function emissionRows4(
  t: number,
  k: number,
  data: ArrayLike<number>,
  means: Float64Array,
  logNorm: Float64Array,
  nh: Float64Array,
  b: Float64Array,
  rowMax: Float64Array,
): void {
  for (let r = 0; r < t; r++) {
    const cur = r * k;
    const xb = r * 4;
    const x0 = data[xb] as number;
    const x1 = data[xb + 1] as number;
    const x2 = data[xb + 2] as number;
    const x3 = data[xb + 3] as number;
    let m = -Infinity;
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
    // A row of −∞ (impossible under every state) stays −∞; the caller sees loglik −∞.
    rowMax[r] = m === -Infinity ? 0 : m;
  }
}

function emissionRows(
  t: number,
  k: number,
  d: number,
  data: ArrayLike<number>,
  means: Float64Array,
  logNorm: Float64Array,
  nh: Float64Array,
  b: Float64Array,
  rowMax: Float64Array,
): void {
  for (let r = 0; r < t; r++) {
    const cur = r * k;
    const xb = r * d;
    let m = -Infinity;
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
    rowMax[r] = m === -Infinity ? 0 : m;
  }
}

/** b ← exp(logB − rowMax) per row; entries under the flush threshold are exactly 0 (underflow.ts). */
function expRows(t: number, k: number, b: Float64Array, rowMax: Float64Array): void {
  for (let r = 0; r < t; r++) {
    const m = rowMax[r] as number;
    const cur = r * k;
    for (let s = 0; s < k; s++) {
      const x = (b[cur + s] as number) - m;
      b[cur + s] = x < LOG_FLUSH ? 0 : Math.exp(x);
    }
  }
}

/** α_0 = π ∘ b_0, normalised; returns the scale c_0 (0 when the first bar is impossible). */
function firstRow(k: number, start: Float64Array, b: Float64Array, alpha: Float64Array): number {
  let c = 0;
  for (let s = 0; s < k; s++) {
    const v = (start[s] as number) * (b[s] as number);
    alpha[s] = v;
    c += v;
  }
  return c;
}

/** Divides row `cur` of alpha by c, flushing tiny values (underflow.ts keeps products normal). */
function normaliseRow(alpha: Float64Array, cur: number, k: number, c: number): void {
  const inv = 1 / c;
  for (let j = 0; j < k; j++) {
    const v = (alpha[cur + j] as number) * inv;
    alpha[cur + j] = v < FLUSH ? 0 : v;
  }
}

/** The forward recursion for any state count, four target states at a time. */
function recursion(t: number, p: HmmParams, ws: ForwardBackwardWorkspace): number {
  const { k } = p;
  const A = p.transMat;
  const { b, alpha, scale, rowMax } = ws;
  let c = firstRow(k, p.startProb, b, alpha);
  if (!(c > 0)) return -Infinity;
  normaliseRow(alpha, 0, k, c);
  scale[0] = c;
  let loglik = Math.log(c) + (rowMax[0] as number);
  for (let r = 1; r < t; r++) {
    const cur = r * k;
    const prev = cur - k;
    c = 0;
    // Each α_{r−1}(i) is loaded once per four products. Every sum still runs over i in order,
    // so the bits are those of the one-state loop below (and of recursion8).
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
    if (!(c > 0)) return -Infinity;
    normaliseRow(alpha, cur, k, c);
    scale[r] = c;
    loglik += Math.log(c) + (rowMax[r] as number);
  }
  return loglik;
}

/**
 * The forward recursion for eight states (the CLI's `--states 8`): all eight sums live at once,
 * so the additions of different targets overlap instead of waiting on each other (four at a time
 * left the adder idle). Same sums in the same order as `recursion`: the same bits.
 */
function recursion8(t: number, p: HmmParams, ws: ForwardBackwardWorkspace): number {
  const A = p.transMat;
  const { b, alpha, scale, rowMax } = ws;
  let c = firstRow(8, p.startProb, b, alpha);
  if (!(c > 0)) return -Infinity;
  normaliseRow(alpha, 0, 8, c);
  scale[0] = c;
  let loglik = Math.log(c) + (rowMax[0] as number);
  for (let r = 1; r < t; r++) {
    const cur = r * 8;
    const prev = cur - 8;
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    let a4 = 0;
    let a5 = 0;
    let a6 = 0;
    let a7 = 0;
    for (let i = 0; i < 8; i++) {
      const a = alpha[prev + i] as number;
      const row = i * 8;
      a0 += a * (A[row] as number);
      a1 += a * (A[row + 1] as number);
      a2 += a * (A[row + 2] as number);
      a3 += a * (A[row + 3] as number);
      a4 += a * (A[row + 4] as number);
      a5 += a * (A[row + 5] as number);
      a6 += a * (A[row + 6] as number);
      a7 += a * (A[row + 7] as number);
    }
    const v0 = a0 * (b[cur] as number);
    const v1 = a1 * (b[cur + 1] as number);
    const v2 = a2 * (b[cur + 2] as number);
    const v3 = a3 * (b[cur + 3] as number);
    const v4 = a4 * (b[cur + 4] as number);
    const v5 = a5 * (b[cur + 5] as number);
    const v6 = a6 * (b[cur + 6] as number);
    const v7 = a7 * (b[cur + 7] as number);
    alpha[cur] = v0;
    alpha[cur + 1] = v1;
    alpha[cur + 2] = v2;
    alpha[cur + 3] = v3;
    alpha[cur + 4] = v4;
    alpha[cur + 5] = v5;
    alpha[cur + 6] = v6;
    alpha[cur + 7] = v7;
    c = v0;
    c += v1;
    c += v2;
    c += v3;
    c += v4;
    c += v5;
    c += v6;
    c += v7;
    if (!(c > 0)) return -Infinity;
    normaliseRow(alpha, cur, 8, c);
    scale[r] = c;
    loglik += Math.log(c) + (rowMax[r] as number);
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
  const loglik = forwardScaled(p, obs, ws);
  if (loglik === -Infinity) return loglik;
  backwardScaled(p, ws, obs.t);
  return loglik;
}

/** The forward pass alone: log-likelihood, filtered posteriors in ws.alpha, scaled emissions in ws.b. */
export function forwardInto(p: HmmParams, obs: Observations, ws: ForwardBackwardWorkspace): number {
  if (ws.t < obs.t || ws.k !== p.k) throw new RangeError("workspace does not fit the sequence");
  if (obs.t === 0) return 0;
  return forwardScaled(p, obs, ws);
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
