import { describe, expect, it } from "vitest";
import { DEFAULT_EVALUATION, evaluateSpan, evaluateSpanSteps, quintileBounds, type EvaluatedHour } from "../../../src/domain/evaluation/verdict-evaluation.js";
import { SeededRandom } from "../../../src/domain/regime/prng.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = Date.UTC(2023, 0, 1);

/**
 * Hourly bullish calls over `days` days whose 24 h outcome is drawn once per day with probability
 * `truth(confidence)`; `confidence` cycles through five levels so every quintile has its own.
 */
function stream(days: number, truth: (confidence: number) => number, seed = 3): EvaluatedHour[] {
  const rng = new SeededRandom(seed);
  const levels = [0.52, 0.56, 0.6, 0.64, 0.68];
  const rows: EvaluatedHour[] = [];
  for (let d = 0; d < days; d++) {
    const confidence = levels[d % levels.length] as number;
    const up = rng.next() < truth(confidence);
    for (let h = 0; h < 24; h++) {
      const r = up ? 0.01 : -0.01;
      rows.push({ at: START + d * DAY + h * HOUR, ruling: "BUY", score: 40, confidence, baseRate: 0.5, forward: { h4: r, h24: r, h72: r } });
    }
  }
  return rows;
}

describe("reliability of a ruling stream", () => {
  it("grades bullish calls by the 24 h move and reports the quintiles' mean |confidence − hit rate|", () => {
    // Always right: each quintile's hit rate is 1, so the gap is 1 − its mean confidence.
    const r = evaluateSpan("from_2023", stream(50, () => 1)).reliability;
    expect(r.calls).toBe(50 * 24);
    expect(r.hitRate).toBe(1);
    expect(r.quintiles.map((q) => q.hitRate)).toEqual([1, 1, 1, 1, 1]);
    expect(r.quintileMeanAbsGap).toBeCloseTo(1 - 0.6, 4);
    // Brier of confidence c against a certain hit is (1 − c)²; the base rate forecaster says 0.5.
    expect(r.brier).toBeCloseTo((0.48 ** 2 + 0.44 ** 2 + 0.4 ** 2 + 0.36 ** 2 + 0.32 ** 2) / 5, 4);
    expect(r.brierBaseRate).toBe(0.25);
  });

  it("puts a calibrated forecaster's gap inside the band it publishes, and an overconfident one beyond it", () => {
    const calibrated = evaluateSpan("from_2023", stream(1_200, (c) => c)).reliability;
    const band = calibrated.quintileGapIfCalibrated;
    expect(band).not.toBeNull();
    expect(band!.median).toBeGreaterThan(0);
    expect(band!.p95).toBeGreaterThan(band!.median);
    expect(calibrated.quintileMeanAbsGap!).toBeLessThanOrEqual(band!.p95);
    // Right only half the time at 52–68% confidence: far outside what calibration explains.
    const overconfident = evaluateSpan("from_2023", stream(1_200, () => 0.5)).reliability;
    expect(overconfident.quintileMeanAbsGap!).toBeGreaterThan(overconfident.quintileGapIfCalibrated!.p95);
  });

  it("counts a day's overlapping calls as one outcome: the band is wider than independent hourly outcomes would give", () => {
    const r = evaluateSpan("from_2023", stream(1_200, (c) => c)).reliability;
    // With 24 × 1,200 independent outcomes the quintiles' noise would be ~0.006; one draw per day
    // (240 days per quintile) leaves ~0.03.
    expect(r.quintileGapIfCalibrated!.median).toBeGreaterThan(0.015);
  });

  it("grades a day's bullish and bearish calls against one price move: they hit against each other, which narrows the band", () => {
    // Every day: 12 BUY and 12 SELL hours, all at 0.6. A calibrated reader of these confidences
    // expects 60 % of each to hit, but never all of a day's calls at once (the market moved one way).
    const mixed: EvaluatedHour[] = [];
    const oneSided: EvaluatedHour[] = [];
    for (let d = 0; d < 600; d++) {
      for (let h = 0; h < 24; h++) {
        const row = { at: START + d * DAY + h * HOUR, score: 0, confidence: 0.6, baseRate: 0.5, forward: { h4: 0.01, h24: 0.01, h72: 0.01 } };
        mixed.push({ ...row, ruling: h % 2 === 0 ? "BUY" : "SELL" });
        oneSided.push({ ...row, ruling: "BUY" });
      }
    }
    const mixedBand = evaluateSpan("from_2023", mixed).reliability.quintileGapIfCalibrated!;
    const oneSidedBand = evaluateSpan("from_2023", oneSided).reliability.quintileGapIfCalibrated!;
    // A day's hit share is 0.5 or 1 for the mixed stream (sd 0.2), 0 or 1 for the one-sided one (sd 0.49).
    expect(mixedBand.median).toBeLessThan(oneSidedBand.median / 2);
    expect(mixedBand.median).toBeGreaterThan(0);
  });

  it("is a pure function of the calls (fixed seed): the same stream gives the same band", () => {
    const a = evaluateSpan("from_2023", stream(300, (c) => c)).reliability.quintileGapIfCalibrated;
    const b = evaluateSpan("from_2023", stream(300, (c) => c)).reliability.quintileGapIfCalibrated;
    expect(a).toEqual(b);
  });
});

describe("confidence quintiles", () => {
  it("are equal-count fifths when every confidence differs", () => {
    const distinct = Array.from({ length: 23 }, (_, i) => 0.4 + i / 100);
    expect(quintileBounds(distinct)).toEqual([0, 4, 9, 13, 18, 23]);
  });

  it("never split equal confidences: a tie group goes whole to the quintile of its mid-rank", () => {
    // Ten calls, fifths of two: 0.50 (ranks 1-4, mid-rank 2) belongs to the second fifth and takes
    // its whole group there; cut at equal counts it would have been split over three.
    const tied = [0.4, 0.5, 0.5, 0.5, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95];
    const bounds = quintileBounds(tied);
    expect(bounds).toEqual([0, 1, 5, 6, 8, 10]);
    for (let q = 0; q + 1 < bounds.length; q++) {
      const part = tied.slice(bounds[q], bounds[q + 1]);
      for (const other of tied.slice(bounds[q + 1])) expect(part).not.toContain(other);
    }
  });

  it("make one group of one confidence, and the gap is then the stream's |confidence − hit rate|", () => {
    expect(quintileBounds([0.5, 0.5, 0.5, 0.5, 0.5, 0.5])).toEqual([0, 6]);
    const flat = stream(100, () => 1).map((r) => ({ ...r, confidence: 0.55 }));
    const r = evaluateSpan("from_2023", flat).reliability;
    expect(r.quintiles).toHaveLength(1);
    expect(r.quintileMeanAbsGap).toBeCloseTo(0.45, 4);
  });
});

describe("the evaluation in steps", () => {
  it("is the same evaluation, with no step holding more than one resample or null draw", () => {
    const rows = stream(400, (c) => c);
    const steps = evaluateSpanSteps("from_2023", rows);
    let yields = 0;
    let result = steps.next();
    while (result.done !== true) {
      yields++;
      result = steps.next();
    }
    expect(result.value).toEqual(evaluateSpan("from_2023", rows));
    // 200 block-bootstrap resamples at each of 3 horizons, 4,000 calibrated-forecaster draws.
    expect(yields).toBeGreaterThanOrEqual(3 * DEFAULT_EVALUATION.bootstrapDraws + 4_000);
  });
});
