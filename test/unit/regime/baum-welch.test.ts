import { describe, expect, it } from "vitest";
import { baumWelch } from "../../../src/domain/regime/baum-welch.js";
import { fitHmm } from "../../../src/domain/regime/fit-hmm.js";
import { logLikelihood } from "../../../src/domain/regime/forward-backward.js";
import { observations, type HmmParams } from "../../../src/domain/regime/hmm-params.js";
import { initialParams } from "../../../src/domain/regime/initial-params.js";
import { sampleHmm } from "../../support/regime/sample-hmm.js";
import { varianceFloors } from "../../../src/domain/regime/variance-floor.js";
import { params, randomParams } from "./fixtures.js";

function permutations(n: number): number[][] {
  if (n === 1) return [[0]];
  return permutations(n - 1).flatMap((p) => Array.from({ length: n }, (_, i) => [...p.slice(0, i), n - 1, ...p.slice(i)]));
}

/** The fitted state order that best matches the truth (states are only defined up to relabelling). */
function alignStates(truth: HmmParams, fitted: HmmParams): number[] {
  let best: number[] = [];
  let bestErr = Infinity;
  for (const perm of permutations(truth.k)) {
    let err = 0;
    for (let s = 0; s < truth.k; s++) {
      for (let f = 0; f < truth.d; f++) err += (truth.means[s * truth.d + f]! - fitted.means[perm[s]! * truth.d + f]!) ** 2;
    }
    if (err < bestErr) {
      bestErr = err;
      best = perm;
    }
  }
  return best;
}

describe("Baum-Welch", () => {
  const truth = params(
    [0.5, 0.3, 0.2],
    [
      [0.95, 0.03, 0.02],
      [0.04, 0.9, 0.06],
      [0.05, 0.05, 0.9],
    ],
    [
      [0, 0],
      [3, -1],
      [-2, 2],
    ],
    [
      [1, 0.5],
      [0.6, 1.2],
      [2, 0.8],
    ],
  );

  it("recovers the parameters of a known 3-state model from 20,000 sampled bars", () => {
    const { obs } = sampleHmm(truth, 20_000, 42);
    const fit = fitHmm(obs, { states: 3, seed: 1, restarts: 3, maxIterations: 300, tolerance: 1e-6 });
    const perm = alignStates(truth, fit.params);
    for (let s = 0; s < 3; s++) {
      const q = perm[s]!;
      for (let f = 0; f < 2; f++) {
        expect(fit.params.means[q * 2 + f]!).toBeCloseTo(truth.means[s * 2 + f]!, 1);
        expect(Math.abs(fit.params.vars[q * 2 + f]! / truth.vars[s * 2 + f]! - 1)).toBeLessThan(0.08);
      }
      for (let j = 0; j < 3; j++) {
        expect(Math.abs(fit.params.transMat[q * 3 + perm[j]!]! - truth.transMat[s * 3 + j]!)).toBeLessThan(0.02);
      }
    }
    // The fitted model explains the data at least as well as the truth (it is the MLE).
    expect(fit.loglik).toBeGreaterThanOrEqual(logLikelihood(truth, obs) - 1e-6);
  });

  it("never lowers the log-likelihood between iterations", () => {
    for (let seed = 1; seed <= 5; seed++) {
      const p = randomParams(4, 3, seed, 0.7);
      const { obs } = sampleHmm(p, 2000, seed + 50);
      const floors = varianceFloors(obs);
      const run = baumWelch(obs, initialParams(obs, 4, seed, floors), { maxIterations: 60, tolerance: -Infinity, floors });
      expect(run.history).toHaveLength(61);
      for (let i = 1; i < run.history.length; i++) {
        expect(run.history[i]!).toBeGreaterThanOrEqual(run.history[i - 1]! - 1e-9 * Math.abs(run.history[i - 1]!));
      }
    }
  });

  it("is deterministic for a seed", () => {
    const { obs } = sampleHmm(truth, 3000, 5);
    const a = fitHmm(obs, { states: 3, seed: 9, restarts: 2, maxIterations: 30 });
    const b = fitHmm(obs, { states: 3, seed: 9, restarts: 2, maxIterations: 30 });
    expect(Array.from(a.params.means)).toEqual(Array.from(b.params.means));
    expect(a.restartLoglik).toEqual(b.restartLoglik);
  });

  it("stays finite on a constant series (flat prices: zero variance everywhere)", () => {
    const obs = observations(Array.from({ length: 300 }, () => [0, 0, 0, 0]));
    const fit = fitHmm(obs, { states: 3, seed: 1, restarts: 2, maxIterations: 20 });
    expect(Number.isFinite(fit.loglik)).toBe(true);
    const all = [...fit.params.startProb, ...fit.params.transMat, ...fit.params.means, ...fit.params.vars];
    expect(all.every(Number.isFinite)).toBe(true);
    expect(Math.min(...fit.params.vars)).toBeGreaterThan(0);
  });

  it("keeps a state nothing visits instead of turning it into 0/0", () => {
    // Two clusters, four states: at least two states end up (nearly) unused.
    const rows = Array.from({ length: 400 }, (_, i) => [i % 2 === 0 ? -5 : 5]);
    const fit = fitHmm(observations(rows), { states: 4, seed: 3, restarts: 1, maxIterations: 50 });
    const all = [...fit.params.transMat, ...fit.params.means, ...fit.params.vars];
    expect(all.every(Number.isFinite)).toBe(true);
  });
});

describe("a weekly refit warm-started from the previous model", () => {
  it("falls back to the best restart when the previous model makes a new bar impossible, rather than failing the refit", () => {
    // The previous model: state 1 (mean 40) can no longer be reached (EM set its transitions to
    // exactly 0), and the newest bar, 30, is explained only by it: under that model the
    // observations have probability 0, while a fresh fit explains them well.
    const t = 100;
    const data = Float64Array.from({ length: t }, (_, i) => (i === t - 1 ? 30 : (i % 5) * 0.1));
    const obs = { t, d: 1, data };
    const previous: HmmParams = { k: 2, d: 1, startProb: Float64Array.from([1, 0]), transMat: Float64Array.from([1, 0, 0.5, 0.5]), means: Float64Array.from([0, 40]), vars: Float64Array.from([1, 1]) };
    const cold = fitHmm(obs, { states: 2, seed: 1, restarts: 2 });
    const refit = fitHmm(obs, { states: 2, seed: 1, restarts: 2, warmStart: previous });
    expect(refit.warmStarted).toBe(false);
    expect(refit.loglik).toBe(cold.loglik);
    expect(Number.isFinite(refit.loglik)).toBe(true);
  });
});
