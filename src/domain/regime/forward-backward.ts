import type { HmmParams, Observations } from "./hmm-params.js";
import { emissionConstants, logEmissionRow } from "./log-emissions.js";
import { FLUSH_BELOW, LOG_FLUSH_BELOW } from "./underflow.js";

/**
 * Buffers for one sequence length and state count, allocated once and reused by every EM
 * iteration so the hot loops allocate nothing.
 */
export class ForwardBackwardWorkspace {
  /** Emission log-densities, then (after `scaledEmissions`) exp(logB − rowMax), t×k. */
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
  /** Transposed transition matrix, so the forward recursion reads it contiguously. */
  readonly transT: Float64Array;
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
    this.transT = new Float64Array(k * k);
    this.tmp = new Float64Array(k);
  }

  /** Scratch of length k for the backward pass. */
  get scratch(): Float64Array {
    return this.tmp;
  }
}

/**
 * Fills ws.b with exp(logB − max_s logB), row by row (one sweep: the log-densities of a row are
 * still in cache when exponentiated). Shifting by the row maximum keeps at least one entry at 1,
 * so an outlier bar far from every state (log-density −10⁵) cannot underflow the whole row to
 * zero; the shift is added back into the log-likelihood.
 */
function scaledEmissions(p: HmmParams, obs: Observations, ws: ForwardBackwardWorkspace): void {
  const { k } = p;
  const { t, d, data } = obs;
  if (d !== p.d) throw new RangeError(`observations have ${d} features, model has ${p.d}`);
  const constants = emissionConstants(p);
  const b = ws.b;
  for (let r = 0; r < t; r++) {
    const base = r * k;
    logEmissionRow(p, constants, data, r * d, b, base);
    let m = -Infinity;
    for (let s = 0; s < k; s++) {
      const v = b[base + s] as number;
      if (v > m) m = v;
    }
    // A row of −∞ (impossible under every state) stays −∞; the caller sees loglik −∞.
    if (m === -Infinity) m = 0;
    ws.rowMax[r] = m;
    for (let s = 0; s < k; s++) {
      const x = (b[base + s] as number) - m;
      b[base + s] = x < LOG_FLUSH_BELOW ? 0 : Math.exp(x);
    }
  }
}

/**
 * Scaled forward pass (Rabiner's scaling with the emission shift above). Leaves the filtered
 * posteriors in ws.alpha and returns log P(x_1..T). Each alpha row uses only bars up to it, so
 * it is also the online filter's answer at that bar: no look-ahead.
 */
function forwardScaled(p: HmmParams, ws: ForwardBackwardWorkspace, t: number): number {
  const { k } = p;
  const { b, alpha, scale, rowMax } = ws;
  const AT = ws.transT;
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) AT[j * k + i] = p.transMat[i * k + j] as number;
  let loglik = 0;
  let c = 0;
  for (let s = 0; s < k; s++) {
    const v = (p.startProb[s] as number) * (b[s] as number);
    alpha[s] = v;
    c += v;
  }
  if (!(c > 0)) return -Infinity;
  for (let s = 0; s < k; s++) {
    const v = (alpha[s] as number) / c;
    alpha[s] = v < FLUSH_BELOW ? 0 : v;
  }
  scale[0] = c;
  loglik += Math.log(c) + (rowMax[0] as number);
  for (let r = 1; r < t; r++) {
    const prev = (r - 1) * k;
    const cur = r * k;
    c = 0;
    for (let j = 0; j < k; j++) {
      let acc = 0;
      const col = j * k;
      for (let i = 0; i < k; i++) acc += (alpha[prev + i] as number) * (AT[col + i] as number);
      const v = acc * (b[cur + j] as number);
      alpha[cur + j] = v;
      c += v;
    }
    if (!(c > 0)) return -Infinity;
    const inv = 1 / c;
    // Flushing (underflow.ts) keeps later products out of the slow subnormal range.
    for (let j = 0; j < k; j++) {
      const v = (alpha[cur + j] as number) * inv;
      alpha[cur + j] = v < FLUSH_BELOW ? 0 : v;
    }
    scale[r] = c;
    loglik += Math.log(c) + (rowMax[r] as number);
  }
  return loglik;
}

/**
 * Scaled backward pass, then the smoothed posteriors γ = α·β. With Rabiner's scaling every γ
 * row already sums to 1 up to rounding; it is renormalised anyway. (Baum-Welch does not use
 * this: em-statistics.ts fuses the backward pass with the M-step sums and stores no β or γ.)
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
      tmp[j] = v < FLUSH_BELOW ? 0 : v;
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
  scaledEmissions(p, obs, ws);
  const loglik = forwardScaled(p, ws, obs.t);
  if (loglik === -Infinity) return loglik;
  backwardScaled(p, ws, obs.t);
  return loglik;
}

/** The forward pass alone: log-likelihood, filtered posteriors in ws.alpha, scaled emissions in ws.b. */
export function forwardInto(p: HmmParams, obs: Observations, ws: ForwardBackwardWorkspace): number {
  if (ws.t < obs.t || ws.k !== p.k) throw new RangeError("workspace does not fit the sequence");
  if (obs.t === 0) return 0;
  scaledEmissions(p, obs, ws);
  return forwardScaled(p, ws, obs.t);
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
