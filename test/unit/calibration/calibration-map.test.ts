import { describe, expect, it } from "vitest";
import { isotonicIncreasing } from "../../../src/domain/calibration/isotonic.js";
import { ScoreHistogram } from "../../../src/domain/calibration/score-histogram.js";
import { DEFAULT_CALIBRATION, calibratedConfidence, fitCalibrationMap, probabilityUp, skillZ } from "../../../src/domain/calibration/calibration-map.js";
import { SeededRandom } from "../../../src/domain/regime/prng.js";

/** Outcomes whose probability of going up is `p(score)`, scores uniform in [-60, 60]. */
function histogramOf(n: number, p: (score: number) => number, seed = 1): ScoreHistogram {
  const rng = new SeededRandom(seed);
  const h = new ScoreHistogram();
  for (let i = 0; i < n; i++) {
    const score = Math.round(rng.next() * 120 - 60);
    h.add(score, rng.next() < p(score));
  }
  return h;
}

describe("isotonic regression (pool adjacent violators)", () => {
  it("pools violators into their weighted mean and leaves monotone data alone", () => {
    expect(isotonicIncreasing([0.1, 0.2, 0.3], [1, 1, 1]).map((b) => b.value)).toEqual([0.1, 0.2, 0.3]);
    const pooled = isotonicIncreasing([0.5, 0.1, 0.6], [1, 3, 1]);
    expect(pooled.map((b) => [b.first, b.last])).toEqual([[0, 1], [2, 2]]);
    expect(pooled[0]?.value).toBeCloseTo(0.2, 12);
    expect(isotonicIncreasing([0.9, 0.5, 0.1], [1, 1, 1]).map((b) => b.value)).toEqual([0.5]);
  });
});

describe("calibration map", () => {
  it("gives a score that is not a number the base rate, not the top step's probability", () => {
    const map = { stream: "verdict:BTC", horizonHours: 24, fittedAt: 0, kind: "isotonic" as const, baseRate: 0.52, upShare: 0.53, outcomes: 4_000, windowDays: 365, steps: [
      { maxScore: 0, meanScore: -20, pUp: 0.47, count: 2_000 },
      { maxScore: 100, meanScore: 20, pUp: 0.58, count: 2_000 },
    ] };
    expect(probabilityUp(map, Number.NaN)).toBe(0.52);
    expect(probabilityUp(map, 50)).toBe(0.58);
  });

  it("is a coin flip (prior) without a week of outcomes, and the base rate without two months", () => {
    const few = histogramOf(100, () => 0.9);
    expect(fitCalibrationMap("verdict:BTC", few, 0)).toMatchObject({ kind: "prior", baseRate: 0.5, steps: [] });
    const some = histogramOf(24 * 30, () => 0.9);
    const m = fitCalibrationMap("verdict:BTC", some, 0);
    expect(m.kind).toBe("base_rate");
    // 90% up, shrunk toward 0.5 by a year of prior weight: a month of data moves it only part way.
    expect(m.baseRate).toBeGreaterThan(0.5);
    expect(m.baseRate).toBeLessThan(0.6);
    expect(m.upShare).toBeGreaterThan(0.85);
  });

  it("finds no skill in noise and answers the base rate for every score", () => {
    const noise = histogramOf(24 * 365, () => 0.5, 3);
    expect(Math.abs(skillZ(noise, 24))).toBeLessThan(2);
    const m = fitCalibrationMap("verdict:BTC", noise, 0);
    expect(m.kind).toBe("base_rate");
    expect(probabilityUp(m, 55)).toBe(probabilityUp(m, -55));
  });

  it("fits a monotone map where higher scores really come before up-moves", () => {
    const skilled = histogramOf(24 * 365, (s) => 0.5 + s / 200, 5);
    expect(skillZ(skilled, 24)).toBeGreaterThan(2);
    const m = fitCalibrationMap("verdict:BTC", skilled, 0);
    expect(m.kind).toBe("isotonic");
    for (let i = 1; i < m.steps.length; i++) expect(m.steps[i]?.pUp).toBeGreaterThanOrEqual(m.steps[i - 1]?.pUp ?? 0);
    expect(probabilityUp(m, 55)).toBeGreaterThan(0.65);
    expect(probabilityUp(m, -55)).toBeLessThan(0.35);
    // Every step holds at least the minimum of outcomes it was pooled to.
    for (const s of m.steps) expect(s.count).toBeGreaterThanOrEqual(DEFAULT_CALIBRATION.minBinOutcomes);
  });

  it("never turns anti-skill into confidence: scores that predict the wrong way pool to the base rate", () => {
    const wrongWay = histogramOf(24 * 365, (s) => 0.5 - s / 200, 7);
    expect(skillZ(wrongWay, 24)).toBeLessThan(-2);
    expect(fitCalibrationMap("verdict:BTC", wrongWay, 0).kind).toBe("base_rate");
  });

  it("turns a ruling into the probability of its own direction", () => {
    const m = fitCalibrationMap("verdict:BTC", histogramOf(24 * 365, (s) => 0.5 + s / 200, 5), 0);
    const p = probabilityUp(m, 40);
    expect(calibratedConfidence(m, "BUY", 40)).toBeCloseTo(p, 4);
    expect(calibratedConfidence(m, "SELL", 40)).toBeCloseTo(1 - p, 4);
    expect(calibratedConfidence(m, "AVOID", 40)).toBeCloseTo(1 - p, 4);
    expect(calibratedConfidence(m, "REDUCE", 40)).toBeCloseTo(1 - p, 4);
    expect(calibratedConfidence(m, "HOLD", 40)).toBeCloseTo(Math.max(p, 1 - p), 4);
  });
});
