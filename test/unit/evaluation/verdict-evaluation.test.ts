import { describe, expect, it } from "vitest";
import { DEFAULT_EVALUATION, evaluateSpan, evaluateSpanSteps, quintileBounds, type EvaluatedHour } from "../../../src/domain/evaluation/verdict-evaluation.js";
import { NULL_DRAWS } from "../../../src/domain/evaluation/calibrated-gap-band.js";
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

  it("counts overlapping calls as far fewer outcomes: the band is wider than independent hourly outcomes would give", () => {
    const r = evaluateSpan("from_2023", stream(1_200, (c) => c)).reliability;
    // With 24 × 1,200 independent outcomes the quintiles' noise would be ~0.006; hourly calls
    // whose 24 h windows overlap leave about one outcome a day (240 days per quintile), ~0.03.
    expect(r.quintileGapIfCalibrated!.median).toBeGreaterThan(0.015);
  });

  it("grades bullish and bearish calls over the same hours against one price path: they hit against each other, which narrows the band", () => {
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

  it("ties calls together by how much their 24 h windows overlap, not by the UTC day they fall on", () => {
    // 600 pairs of BUY calls, three days apart so no two pairs overlap. Within a pair the calls are
    // 2 h apart (22 h of their 24 h shared), on one day or across midnight; or 24 h apart (none shared).
    const pairs = (first: number, second: number): EvaluatedHour[] => {
      const levels = [0.52, 0.56, 0.6, 0.64, 0.68];
      const rows: EvaluatedHour[] = [];
      for (let u = 0; u < 600; u++) {
        for (const h of [first, second]) {
          rows.push({ at: START + u * 3 * DAY + h * HOUR, ruling: "BUY", score: 40, confidence: levels[u % 5] as number, baseRate: 0.5, forward: { h4: 0.01, h24: 0.01, h72: 0.01 } });
        }
      }
      return rows;
    };
    const band = (rows: EvaluatedHour[]) => evaluateSpan("from_2023", rows).reliability.quintileGapIfCalibrated!.median;
    const sameDay = band(pairs(10, 12));
    const acrossMidnight = band(pairs(23, 25));
    const dayApart = band(pairs(10, 34));
    // Graded by UTC day, the pair across midnight counted as two outcomes, like the pair a day apart.
    expect(Math.abs(acrossMidnight / sameDay - 1)).toBeLessThan(0.08);
    expect(acrossMidnight).toBeGreaterThan(1.2 * dayApart);
  }, 30_000);

  it("covers a calibrated forecaster on a real random walk: its gap exceeds the published 95th percentile about one time in twenty", () => {
    // One Gaussian price path per trial, graded exactly as the service grades: each hour's call
    // (BUY or SELL at random, confidence within 0.002 of the walk's true 0.5) against the path's
    // own 24 h move. Overlapping windows make neighbouring hours' outcomes agree, as in a market.
    const trials = 40;
    let above95 = 0;
    let belowMedian = 0;
    for (let trial = 0; trial < trials; trial++) {
      const rng = new SeededRandom(100 + trial);
      const hours = 90 * 24;
      const path = [0];
      for (let t = 1; t <= hours + 24; t++) path.push((path[t - 1] as number) + rng.normal());
      const rows: EvaluatedHour[] = [];
      for (let t = 0; t < hours; t++) {
        const move = (path[t + 24] as number) - (path[t] as number);
        const confidence = 0.498 + 0.001 * rng.int(5);
        rows.push({ at: START + t * HOUR, ruling: rng.next() < 0.5 ? "BUY" : "SELL", score: 0, confidence, baseRate: 0.5, forward: { h4: null, h24: move, h72: null } });
      }
      const r = evaluateSpan("from_2023", rows).reliability;
      const band = r.quintileGapIfCalibrated!;
      if (r.quintileMeanAbsGap! > band.p95) above95++;
      if (r.quintileMeanAbsGap! < band.median) belowMedian++;
    }
    // Binomial(40, 0.05): 7 or more exceedances has probability 0.3 %. Binomial(40, 0.5): outside 10–30, 0.2 %.
    expect(above95).toBeLessThanOrEqual(6);
    expect(belowMedian).toBeGreaterThanOrEqual(10);
    expect(belowMedian).toBeLessThanOrEqual(30);
    // 40 evaluations of 2,160 calls: about 3 s alone, more beside the rest of the unit suite.
  }, 30_000);

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
    // The block-bootstrap resamples at each of 3 horizons, then the calibrated-forecaster draws.
    expect(yields).toBeGreaterThanOrEqual(3 * DEFAULT_EVALUATION.bootstrapDraws + NULL_DRAWS);
  });
});

describe("the unconditional forward returns", () => {
  it("counts a flat hour as neither up nor down in up_share, as the reliability table grades calls", () => {
    // 10 hours: 3 up, 3 down, 4 flat (a market closed, a stale price).
    const moves = [0.01, 0.01, 0.01, -0.01, -0.01, -0.01, 0, 0, 0, 0];
    const rows: EvaluatedHour[] = moves.map((r, i) => ({ at: START + i * HOUR, ruling: "BUY", score: 40, confidence: 0.55, baseRate: 0.5, forward: { h4: r, h24: r, h72: r } }));
    const e = evaluateSpan("from_2023", rows);
    const at24 = e.unconditional.find((u) => u.hours === 24);
    // 3 of the 6 hours that moved went up; counting the flat ones as "not up" would say 0.3.
    expect(at24?.upShare).toBe(0.5);
    expect(at24?.meanPct).toBe(0);
    // The reliability table grades the same 6 calls.
    expect(e.reliability.calls).toBe(6);
    expect(e.reliability.hitRate).toBe(0.5);
  });
});
