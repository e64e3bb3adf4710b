import { beforeAll, describe, expect, it } from "vitest";
import { baumWelch } from "../../../src/domain/regime/baum-welch.js";
import { posteriors } from "../../../src/domain/regime/forward-backward.js";
import type { HmmParams, Observations } from "../../../src/domain/regime/hmm-params.js";
import { initialParams } from "../../../src/domain/regime/initial-params.js";
import { sampleHmm } from "../../support/regime/sample-hmm.js";
import { varianceFloors } from "../../../src/domain/regime/variance-floor.js";
import { viterbi } from "../../../src/domain/regime/viterbi.js";
import { randomParams } from "../../unit/regime/fixtures.js";
import { ensureHmmlearn, peerFit, peerScore } from "./hmmlearn-runner.js";

/** |a − b| ≤ 1e-9·max(1, |b|): relative for large values, absolute near zero (posteriors ≈ 0). */
function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
}

let python = "";

beforeAll(() => {
  python = ensureHmmlearn();
}, 600_000);

describe("our Gaussian HMM against hmmlearn 0.3.3 (GaussianHMM, diagonal covariance)", () => {
  const shapes: [number, number, number][] = [
    [2, 1, 40],
    [3, 2, 200],
    [4, 3, 500],
    [5, 4, 300],
    [8, 4, 1000],
    [6, 2, 800],
  ];
  const cases: { params: HmmParams; obs: Observations }[] = [];
  shapes.forEach(([k, d, t], i) => {
    for (let rep = 0; rep < 3; rep++) {
      const seed = 1000 + 10 * i + rep;
      const params = randomParams(k, d, seed, 0.3 + 0.2 * rep);
      // Sampled from a different random model than the one scored, so the scored model fits
      // badly in places: the posteriors are not all 0 or 1, and log-densities reach far tails.
      const source = randomParams(k, d, seed + 500, 0.8);
      cases.push({ params, obs: sampleHmm(source, t, seed + 7).obs });
    }
  });

  it("log-likelihood, smoothed posteriors and Viterbi path agree within 1e-9 relative", () => {
    const peer = peerScore(python, cases);
    expect(peer).toHaveLength(cases.length);
    cases.forEach((c, n) => {
      const ours = posteriors(c.params, c.obs);
      const theirs = peer[n]!;
      expect(close(ours.loglik, theirs.loglik), `case ${n} loglik ${ours.loglik} vs ${theirs.loglik}`).toBe(true);
      let worst = 0;
      for (let r = 0; r < c.obs.t; r++) {
        for (let s = 0; s < c.params.k; s++) worst = Math.max(worst, Math.abs(ours.smoothed[r * c.params.k + s]! - theirs.posteriors[r]![s]!));
      }
      expect(worst, `case ${n} posteriors`).toBeLessThanOrEqual(1e-9);
      const v = viterbi(c.params, c.obs);
      expect(Array.from(v.path), `case ${n} viterbi path`).toEqual(theirs.viterbi);
      expect(close(v.logProb, theirs.viterbi_logprob), `case ${n} viterbi logprob`).toBe(true);
    });
  });

  it("from the same initial parameters, our fit reaches a log-likelihood at least as high", () => {
    for (const [k, d, t, seed] of [
      [3, 2, 1500, 1],
      [5, 4, 2000, 2],
      [8, 4, 3000, 3],
    ] as const) {
      const { obs } = sampleHmm(randomParams(k, d, seed, 0.85), t, seed + 1);
      const floors = varianceFloors(obs);
      const init = initialParams(obs, k, seed, floors);
      const iterations = 50;
      const ours = baumWelch(obs, init, { maxIterations: iterations, tolerance: -Infinity, floors });
      const theirs = peerFit(python, init, obs, iterations);
      expect(theirs.iterations).toBe(iterations);
      expect(ours.loglik, `k=${k} d=${d}: ours ${ours.loglik} vs hmmlearn ${theirs.loglik}`).toBeGreaterThanOrEqual(
        theirs.loglik - 1e-9 * Math.abs(theirs.loglik),
      );
    }
  });
});
