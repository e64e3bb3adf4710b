import initWabt from "wabt";
import type { HmmParams, Observations } from "../hmm-params.js";
import type { EmissionConstants } from "../log-emissions.js";
import { FORWARD_8X4_WAT } from "./forward8x4-wat.js";

/**
 * The WebAssembly forward pass (forward8x4-wat.ts), assembled and compiled once per process
 * when this module loads (top-level await), so every caller of the synchronous HMM functions
 * sees the same kernel and a fit is reproducible bit for bit within a process and across
 * processes. Null where WebAssembly SIMD is missing; the JS passes then serve every shape.
 */
const compiled: WebAssembly.Module | null = await compile();

async function compile(): Promise<WebAssembly.Module | null> {
  try {
    const wabt = await initWabt();
    const parsed = wabt.parseWat("forward8x4.wat", FORWARD_8X4_WAT, { simd: true });
    try {
      parsed.validate();
      return new WebAssembly.Module(parsed.toBinary({}).buffer);
    } finally {
      parsed.destroy();
    }
  } catch {
    return null;
  }
}

/** Which forward pass serves 8×4 models in this process: the bench and tests assert it. */
export function forwardKernelName(): "wasm-simd" | "js" {
  return compiled === null ? "js" : "wasm-simd";
}

const PAGE = 65_536;
/** Bytes of the params block (see forward8x4-wat.ts): μ, nh, logNorm, A, π, Aᵀ. */
const PARAMS_BYTES = 1664;

type ForwardFn = (t: number, x: number, p: number, b: number, rowMax: number, alpha: number, scale: number) => number;
type BackwardFn = (t: number, p: number, b: number, alpha: number, scale: number, gamma: number, weights: number) => void;
type ExpFn = (at: number, n: number) => void;

/**
 * One instance with its own memory, sized for sequences up to `t` bars: the workspace's b,
 * alpha, rowMax and scale and the E-step's γ and w columns are views on that memory, so the JS
 * M-step sums read the kernel's output in place.
 */
export class Forward8x4Kernel {
  readonly b: Float64Array;
  readonly alpha: Float64Array;
  readonly rowMax: Float64Array;
  readonly scale: Float64Array;
  /** γ_r(s) at s·T + r for the last sequence's T (em-statistics.ts's state-major layout). */
  readonly gamma: Float64Array;
  /** w_r(s) = b_r(s)·β_r(s)/c_r, flushed, laid out like gamma. */
  readonly weights: Float64Array;
  private readonly x: Float64Array;
  private readonly params: Float64Array;
  private readonly offsets: { x: number; p: number; b: number; alpha: number; rowMax: number; scale: number; gamma: number; weights: number };
  private readonly run: ForwardFn;
  private readonly runBackward: BackwardFn;
  private readonly expFn: ExpFn;

  constructor(
    module: WebAssembly.Module,
    readonly t: number,
  ) {
    const x = 0;
    const p = x + t * 32;
    const b = p + PARAMS_BYTES;
    const alpha = b + t * 64;
    const rowMax = alpha + t * 64;
    const scale = rowMax + t * 8;
    const gamma = scale + t * 8;
    const weights = gamma + t * 64;
    const end = weights + t * 64;
    const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(end / PAGE)) });
    const instance = new WebAssembly.Instance(module, { env: { memory } });
    this.run = instance.exports.forward as ForwardFn;
    this.runBackward = instance.exports.backward as BackwardFn;
    this.expFn = instance.exports.expInPlace as ExpFn;
    this.offsets = { x, p, b, alpha, rowMax, scale, gamma, weights };
    const buf = memory.buffer;
    this.x = new Float64Array(buf, x, t * 4);
    this.params = new Float64Array(buf, p, PARAMS_BYTES / 8);
    this.b = new Float64Array(buf, b, t * 8);
    this.alpha = new Float64Array(buf, alpha, t * 8);
    this.rowMax = new Float64Array(buf, rowMax, t);
    this.scale = new Float64Array(buf, scale, t);
    this.gamma = new Float64Array(buf, gamma, t * 8);
    this.weights = new Float64Array(buf, weights, t * 8);
  }

  /**
   * Runs the forward pass over obs (8 states, 4 features, obs.t ≤ t). Returns obs.t, or the
   * first bar whose scale is not positive.
   */
  forward(p: HmmParams, c: EmissionConstants, obs: Observations): number {
    const n = obs.t * 4;
    this.x.set(obs.data.length === n ? obs.data : obs.data.subarray(0, n));
    const q = this.params;
    // μ and nh feature-major, so each state pair of one feature is one 16-byte load.
    for (let s = 0; s < 8; s++) {
      for (let f = 0; f < 4; f++) {
        q[f * 8 + s] = p.means[s * 4 + f] as number;
        q[32 + f * 8 + s] = c.negHalfInvVar[s * 4 + f] as number;
      }
      q[64 + s] = c.logNorm[s] as number;
      q[136 + s] = p.startProb[s] as number;
    }
    q.set(p.transMat, 72);
    const o = this.offsets;
    return this.run(obs.t, o.x, o.p, o.b, o.rowMax, o.alpha, o.scale);
  }

  /**
   * The backward sweep over the first `t` bars of b, alpha and scale (left by `forward` or by
   * the JS forward pass, which writes into the same views): γ and w into gamma and weights.
   */
  backward(p: HmmParams, t: number): void {
    const q = this.params;
    // Aᵀ: row j holds A(·, j), so a pair of source states is one 16-byte load.
    for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) q[144 + j * 8 + i] = p.transMat[i * 8 + j] as number;
    const o = this.offsets;
    this.runBackward(t, o.p, o.b, o.alpha, o.scale, o.gamma, o.weights);
  }

  /** The kernel's exp over `values` (even length, each in [log 1e-150, 0]): for tests. */
  exp(values: Float64Array): Float64Array {
    if (values.length % 2 !== 0 || values.length > this.b.length) throw new RangeError("even length up to the b buffer");
    this.b.set(values);
    this.expFn(this.offsets.b, values.length);
    return this.b.slice(0, values.length);
  }
}

/** A kernel instance for sequences up to t bars, or null when WebAssembly SIMD is unavailable. */
export function forward8x4Kernel(t: number): Forward8x4Kernel | null {
  return compiled === null ? null : new Forward8x4Kernel(compiled, t);
}
