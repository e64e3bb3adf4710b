import { describe, expect, it } from "vitest";
import { EmStatistics } from "../../../src/domain/regime/em-statistics.js";
import { ForwardBackwardWorkspace, forwardInto } from "../../../src/domain/regime/forward-backward.js";
import { observations, type HmmParams, type Observations } from "../../../src/domain/regime/hmm-params.js";
import { sampleHmm } from "../../support/regime/sample-hmm.js";
import { LOG_FLUSH_BELOW } from "../../../src/domain/regime/underflow.js";
import { forward8x4Kernel, forwardKernelName } from "../../../src/domain/regime/wasm/forward-kernel.js";
import { randomParams } from "./fixtures.js";

/** Distance in units in the last place of a (a positive normal double). */
function ulps(a: number, b: number): number {
  const buf = new DataView(new ArrayBuffer(16));
  buf.setFloat64(0, a);
  buf.setFloat64(8, b);
  return Number(buf.getBigInt64(0) - buf.getBigInt64(8));
}

function maxRelDiff(a: ArrayLike<number>, b: ArrayLike<number>, n: number): number {
  let worst = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    worst = Math.max(worst, Math.abs(x - y) / Math.max(Math.abs(x), 1e-300));
  }
  return worst;
}

function eStep(p: HmmParams, obs: Observations, mode: "auto" | "js") {
  const ws = new ForwardBackwardWorkspace(obs.t, p.k, mode);
  const loglik = forwardInto(p, obs, ws);
  const stats = new EmStatistics(p.k, p.d);
  stats.accumulate(p, obs, ws);
  return { ws, loglik, stats };
}

describe("the WebAssembly SIMD kernel of the 8-state, 4-feature model", () => {
  it("is the kernel this process runs (a WAT that does not assemble would fall back silently otherwise)", () => {
    expect(forwardKernelName()).toBe("wasm-simd");
    expect(new ForwardBackwardWorkspace(10, 8).kernel).not.toBeNull();
    expect(new ForwardBackwardWorkspace(10, 8, "js").kernel).toBeNull();
    expect(new ForwardBackwardWorkspace(10, 6).kernel).toBeNull();
  });

  it("computes exp within 2 ulp of Math.exp over the whole range the forward pass uses", () => {
    const n = 200_000;
    const kernel = forward8x4Kernel(n / 8);
    if (kernel === null) throw new Error("no kernel");
    const xs = new Float64Array(n);
    let seed = 12345;
    for (let i = 0; i < n; i++) {
      seed = (seed * 48271) % 2147483647;
      // Uniform over [log 1e-150, 0], plus the ends and the points where k·ln2 rounds over.
      xs[i] = i < 4 ? [0, LOG_FLUSH_BELOW, -Math.LN2 / 2, -0.5 * Math.LN2 * 999][i]! : (seed / 2147483647) * LOG_FLUSH_BELOW;
    }
    const got = kernel.exp(xs);
    let worst = 0;
    for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(ulps(got[i]!, Math.exp(xs[i]!))));
    expect(worst).toBeLessThanOrEqual(2);
  });

  it("agrees with the JS passes: likelihood, filtered posteriors and every E-step sum within 1e-12", () => {
    for (const seed of [1, 2, 3, 4]) {
      const p = randomParams(8, 4, seed, 0.4 + 0.1 * seed);
      // Sampled from another model so some bars sit far in the tails (exp near the flush line).
      const { obs } = sampleHmm(randomParams(8, 4, seed + 100, 0.8), 3000, seed + 7);
      const fast = eStep(p, obs, "auto");
      const slow = eStep(p, obs, "js");
      expect(fast.ws.kernel).not.toBeNull();
      expect(Math.abs(fast.loglik - slow.loglik) / Math.abs(slow.loglik)).toBeLessThanOrEqual(1e-12);
      expect(maxRelDiff(fast.ws.alpha, slow.ws.alpha, obs.t * 8)).toBeLessThanOrEqual(1e-12);
      expect(maxRelDiff(fast.ws.rowMax, slow.ws.rowMax, obs.t)).toBe(0);
      for (const key of ["first", "pairs", "occupancy", "sums", "squares"] as const) {
        expect(maxRelDiff(fast.stats[key], slow.stats[key], slow.stats[key].length), key).toBeLessThanOrEqual(1e-12);
      }
    }
  });

  it("flushes and fails exactly where the JS passes do: an outlier bar, and a bar no state allows", () => {
    const p = randomParams(8, 4, 9, 0.5);
    const outlier = observations([[0, 0, 0, 0], [40, -40, 40, -40], [0, 0, 0, 0], [0.1, 0, 0, 0]]);
    const fast = eStep(p, outlier, "auto");
    const slow = eStep(p, outlier, "js");
    expect(Number.isFinite(fast.loglik)).toBe(true);
    expect(Math.abs(fast.loglik - slow.loglik) / Math.abs(slow.loglik)).toBeLessThanOrEqual(1e-12);
    for (let i = 0; i < 32; i++) expect(fast.ws.b[i] === 0, `b[${i}]`).toBe(slow.ws.b[i] === 0);

    // A bar so far out that its squared distance overflows: every state's log-density is −∞,
    // the scale is 0, and both passes report a log-likelihood of −∞ instead of NaN.
    const impossible = observations([[0, 0, 0, 0], [1e200, 0, 0, 0]]);
    expect(forwardInto(p, impossible, new ForwardBackwardWorkspace(2, 8))).toBe(-Infinity);
    expect(forwardInto(p, impossible, new ForwardBackwardWorkspace(2, 8, "js"))).toBe(-Infinity);
  });
});
