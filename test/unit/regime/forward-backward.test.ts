import { describe, expect, it } from "vitest";
import { posteriors, logLikelihood } from "../../../src/domain/regime/forward-backward.js";
import { observations } from "../../../src/domain/regime/hmm-params.js";
import { OnlineFilter } from "../../../src/domain/regime/online-filter.js";
import { sampleHmm } from "../../support/regime/sample-hmm.js";
import { viterbi } from "../../../src/domain/regime/viterbi.js";
import { bruteForce } from "./brute-force.js";
import { params, randomParams } from "./fixtures.js";

const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(1, Math.abs(b));

describe("forward-backward on a tiny model", () => {
  // Two states, one feature, unit variances, means 0 and 1: every number below can be checked
  // on paper from the Gaussian density φ.
  const tiny = params([0.6, 0.4], [[0.7, 0.3], [0.4, 0.6]], [[0], [1]], [[1], [1]]);

  it("gives the likelihood of one observation as Σ π_s φ(x − μ_s)", () => {
    const phi = (z: number) => Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
    const obs = observations([[0.5]]);
    expect(logLikelihood(tiny, obs)).toBeCloseTo(Math.log(0.6 * phi(0.5) + 0.4 * phi(-0.5)), 12);
    // Equidistant from both means: the posterior is the prior.
    const post = posteriors(tiny, obs);
    expect(post.smoothed[0]).toBeCloseTo(0.6, 12);
  });

  it("matches the enumeration of every path on three observations", () => {
    const obs = observations([[0.1], [1.2], [-0.4]]);
    const bf = bruteForce(tiny, obs);
    const post = posteriors(tiny, obs);
    expect(rel(post.loglik, Math.log(bf.likelihood))).toBeLessThan(1e-12);
    for (let r = 0; r < 3; r++) {
      for (let s = 0; s < 2; s++) {
        expect(post.smoothed[r * 2 + s]).toBeCloseTo(bf.smoothed[r]![s]!, 12);
        expect(post.filtered[r * 2 + s]).toBeCloseTo(bf.filtered[r]![s]!, 12);
      }
    }
  });
});

describe("forward-backward and Viterbi against brute force", () => {
  it("agree on random 3-state, 2-feature models and 6-bar sequences", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const p = randomParams(3, 2, seed);
      const { obs } = sampleHmm(p, 6, 100 + seed);
      const bf = bruteForce(p, obs);
      const post = posteriors(p, obs);
      expect(rel(post.loglik, Math.log(bf.likelihood))).toBeLessThan(1e-10);
      for (let r = 0; r < 6; r++) for (let s = 0; s < 3; s++) expect(post.smoothed[r * 3 + s]).toBeCloseTo(bf.smoothed[r]![s]!, 10);
      const v = viterbi(p, obs);
      expect(Array.from(v.path)).toEqual(bf.bestPath);
      expect(rel(v.logProb, Math.log(bf.bestJoint))).toBeLessThan(1e-10);
    }
  });
});

describe("numerical stability", () => {
  it("scores 50,000 bars without underflow (the likelihood itself is e^-70000)", () => {
    const p = randomParams(4, 3, 7, 0.9);
    const { obs } = sampleHmm(p, 50_000, 8);
    const post = posteriors(p, obs);
    expect(Number.isFinite(post.loglik)).toBe(true);
    expect(post.smoothed.every((x) => Number.isFinite(x) && x >= 0 && x <= 1 + 1e-12)).toBe(true);
  });

  it("survives an outlier far from every state (log-density around -1e6)", () => {
    const p = randomParams(3, 1, 3);
    const obs = observations([[0], [2000], [0]]);
    const post = posteriors(p, obs);
    expect(Number.isFinite(post.loglik)).toBe(true);
    for (let r = 0; r < 3; r++) expect(post.smoothed[r * 3]! + post.smoothed[r * 3 + 1]! + post.smoothed[r * 3 + 2]!).toBeCloseTo(1, 12);
  });
});

describe("online filter", () => {
  it("reproduces the batch filtered posteriors and likelihood bar by bar", () => {
    const p = randomParams(5, 4, 11, 0.8);
    const { obs } = sampleHmm(p, 500, 12);
    const batch = posteriors(p, obs);
    const filter = new OnlineFilter(p);
    for (let r = 0; r < obs.t; r++) {
      const row = filter.step(obs.data, r * obs.d);
      for (let s = 0; s < 5; s++) expect(row[s]).toBeCloseTo(batch.filtered[r * 5 + s]!, 12);
    }
    expect(rel(filter.logLikelihood, batch.loglik)).toBeLessThan(1e-12);
  });

  it("has no look-ahead: changing future bars leaves every earlier filtered row unchanged", () => {
    const p = randomParams(3, 2, 21, 0.8);
    const { obs } = sampleHmm(p, 200, 22);
    const changed = { ...obs, data: obs.data.slice() };
    for (let i = 150 * 2; i < changed.data.length; i++) changed.data[i] = (changed.data[i] as number) * -3 + 5;
    const a = posteriors(p, obs).filtered;
    const b = posteriors(p, changed).filtered;
    expect(Array.from(b.subarray(0, 150 * 3))).toEqual(Array.from(a.subarray(0, 150 * 3)));
  });
});
