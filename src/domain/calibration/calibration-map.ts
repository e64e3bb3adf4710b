import { z } from "zod";
import { roundTo } from "../numbers/round-to.js";
import { TAO_RULINGS, type TaoRuling } from "../market/vocabulary.js";
import { isotonicIncreasing } from "./isotonic.js";
import type { ScoreHistogram } from "./score-histogram.js";

/**
 * How a map was made, in the words a caller reads:
 * - `isotonic`: fitted on enough matured outcomes (binned reliability, pooled to be monotone);
 * - `base_rate`: too few outcomes to fit; every score gets the window's base rate of up-moves;
 * - `prior`: not even a week of outcomes; a coin flip (0.5) until there are.
 */
export const CALIBRATION_KINDS = ["isotonic", "base_rate", "prior"] as const;
export type CalibrationKind = (typeof CALIBRATION_KINDS)[number];

export const calibrationStepSchema = z.object({
  /**
   * The highest whole score among the step's outcomes. Scores are pooled by the nearest whole
   * number, so the step holds scores below `maxScore + 0.5`; the last step holds the rest.
   */
  maxScore: z.number(),
  /** Mean score of the step's outcomes: where its probability is anchored for interpolation. */
  meanScore: z.number(),
  /** Calibrated probability that the price is higher after the horizon, for scores in this step. */
  pUp: z.number().min(0).max(1),
  /** Matured outcomes the step was fitted on (hourly, overlapping horizons). */
  count: z.number().int().nonnegative(),
});

/** One fitted map, as stored (shared by every replica and restart) and as published. */
export const calibrationMapSchema = z.object({
  /** e.g. `verdict:BTC`, `council:SOL`. */
  stream: z.string().min(1),
  horizonHours: z.number().int().positive(),
  /** Market time the map was fitted at: it uses outcomes matured by then only. */
  fittedAt: z.number().int(),
  kind: z.enum(CALIBRATION_KINDS),
  /** Share of up-moves over the horizon among the window's matured outcomes (0.5 for `prior`). */
  baseRate: z.number().min(0).max(1),
  /** The window's raw share of up-moves (the no-skill forecast before shrinkage); null for `prior`. */
  upShare: z.number().min(0).max(1).nullable(),
  outcomes: z.number().int().nonnegative(),
  windowDays: z.number().int().positive(),
  steps: z.array(calibrationStepSchema),
});
export type CalibrationMap = z.infer<typeof calibrationMapSchema>;
export type CalibrationStep = z.infer<typeof calibrationStepSchema>;

export interface CalibrationSettings {
  readonly horizonHours: number;
  readonly windowDays: number;
  /** Fewer matured outcomes than this: `base_rate` instead of a fit. */
  readonly minFitOutcomes: number;
  /** Fewer than this: `prior`. */
  readonly minBaseRateOutcomes: number;
  /** Fine score bins are pooled left to right until each group holds at least this many. */
  readonly minBinOutcomes: number;
  /** Beta-prior strength (in outcomes) that shrinks every step toward the base rate. */
  readonly shrinkOutcomes: number;
  /**
   * Hourly samples per independent outcome (overlapping horizons): the skill test divides its
   * sample size by this.
   */
  readonly samplesPerOutcome: number;
  /** A fit is used only when the window shows skill: rank-sum z of score vs up-move at least this. */
  readonly minSkillZ: number;
  /**
   * Prior weight (in hourly outcomes) pulling the window's base rate toward 0.5: a year of
   * overlapping 24 h outcomes is only ~365 independent ones, and the drift they show mostly
   * does not persist into the next day.
   */
  readonly baseRatePriorOutcomes: number;
}

/**
 * Chosen on data up to 2022-12-31 (docs/evaluation.md). A day of hourly samples over a 24 h
 * horizon is about one independent outcome, so 720 outcomes per step ≈ 30 independent ones, and
 * the shrinkage of 48 ≈ 2 independent outcomes of prior weight on the base rate (a fit is made only once the window shows skill, see `skillZ`).
 */
export const DEFAULT_CALIBRATION: CalibrationSettings = {
  horizonHours: 24,
  windowDays: 365,
  minFitOutcomes: 60 * 24,
  minBaseRateOutcomes: 7 * 24,
  minBinOutcomes: 30 * 24,
  shrinkOutcomes: 2 * 24,
  samplesPerOutcome: 24,
  minSkillZ: 2,
  baseRatePriorOutcomes: 365 * 24,
};

/**
 * Fits P(up over the horizon | score) on a histogram of matured outcomes: fine bins pooled to a
 * minimum count, made non-decreasing in the score by pool-adjacent-violators (the engine's
 * premise is that a higher score is more bullish; where the data deny it, the fit pools to the
 * base rate instead of inventing skill), then shrunk toward the base rate.
 */
export function fitCalibrationMap(stream: string, histogram: ScoreHistogram, fittedAt: number, settings: CalibrationSettings = DEFAULT_CALIBRATION): CalibrationMap {
  const outcomes = histogram.total();
  const ups = histogram.totalUp();
  const upShare = outcomes === 0 ? null : roundTo(ups / outcomes, 4);
  const base = { upShare, stream, horizonHours: settings.horizonHours, fittedAt, windowDays: settings.windowDays, outcomes };
  if (outcomes < settings.minBaseRateOutcomes) return { ...base, kind: "prior", baseRate: 0.5, upShare: null, steps: [] };
  const baseRate = (ups + 0.5 * settings.baseRatePriorOutcomes) / (outcomes + settings.baseRatePriorOutcomes);
  if (outcomes < settings.minFitOutcomes || skillZ(histogram, settings.samplesPerOutcome) < settings.minSkillZ) {
    return { ...base, kind: "base_rate", baseRate: roundTo(baseRate, 4), steps: [] };
  }

  // Pool fine bins into groups of at least minBinOutcomes, left to right; a short tail joins the last group.
  const groups: { maxScore: number; n: number; up: number; scoreSum: number }[] = [];
  let cur = { maxScore: 0, n: 0, up: 0, scoreSum: 0 };
  for (const bin of histogram.bins()) {
    if (bin.n === 0) continue;
    cur = { maxScore: bin.score, n: cur.n + bin.n, up: cur.up + bin.up, scoreSum: cur.scoreSum + bin.score * bin.n };
    if (cur.n >= settings.minBinOutcomes) {
      groups.push(cur);
      cur = { maxScore: 0, n: 0, up: 0, scoreSum: 0 };
    }
  }
  if (cur.n > 0) {
    const last = groups.pop();
    groups.push(last === undefined ? cur : { maxScore: cur.maxScore, n: last.n + cur.n, up: last.up + cur.up, scoreSum: last.scoreSum + cur.scoreSum });
  }
  const blocks = isotonicIncreasing(
    groups.map((g) => g.up / g.n),
    groups.map((g) => g.n),
  );
  const m = settings.shrinkOutcomes;
  const steps: CalibrationStep[] = blocks.map((b) => {
    const ups = b.value * b.weight;
    let scoreSum = 0;
    for (let g = b.first; g <= b.last; g++) scoreSum += (groups[g] as (typeof groups)[number]).scoreSum;
    return {
      maxScore: (groups[b.last] as (typeof groups)[number]).maxScore,
      meanScore: roundTo(scoreSum / b.weight, 4),
      pUp: roundTo((ups + m * baseRate) / (b.weight + m), 4),
      count: b.weight,
    };
  });
  return { ...base, kind: "isotonic", baseRate: roundTo(baseRate, 4), steps };
}

/**
 * Mann-Whitney z of "higher scores come before up-moves" over the histogram, with the sample
 * size divided by the overlap of the horizons. Ties (one score point) count half, as usual.
 * Without it, the isotonic fit would turn the window's noise into confident-looking steps that
 * do worse than the base rate out of sample (docs/evaluation.md measures it).
 */
export function skillZ(histogram: ScoreHistogram, samplesPerOutcome: number): number {
  let downBelow = 0;
  let u = 0;
  let nUp = 0;
  let nDown = 0;
  for (const bin of histogram.bins()) {
    const down = bin.n - bin.up;
    u += bin.up * (downBelow + down / 2);
    downBelow += down;
    nUp += bin.up;
    nDown += down;
  }
  if (nUp === 0 || nDown === 0) return 0;
  const auc = u / (nUp * nDown);
  const n1 = nUp / samplesPerOutcome;
  const n2 = nDown / samplesPerOutcome;
  const sd = Math.sqrt((n1 + n2 + 1) / (12 * n1 * n2));
  return (auc - 0.5) / sd;
}

/** Calibrated probability that the price rises over the map's horizon, at this score. */
export function probabilityUp(map: CalibrationMap, score: number): number {
  const steps = map.steps;
  // No score is no evidence: the base rate, not the last step's (highest) probability.
  if (steps.length === 0 || Number.isNaN(score)) return map.baseRate;
  const first = steps[0] as CalibrationStep;
  const last = steps[steps.length - 1] as CalibrationStep;
  if (score <= first.meanScore) return first.pUp;
  if (score >= last.meanScore) return last.pUp;
  // Linear between the anchors of neighbouring steps: monotone like the steps, without the jumps
  // that make a step's extreme scores under-confident and its mild ones over-confident.
  for (let i = 1; i < steps.length; i++) {
    const b = steps[i] as CalibrationStep;
    if (score <= b.meanScore) {
      const a = steps[i - 1] as CalibrationStep;
      const w = b.meanScore === a.meanScore ? 1 : (score - a.meanScore) / (b.meanScore - a.meanScore);
      return roundTo(a.pUp + w * (b.pUp - a.pUp), 4);
    }
  }
  return last.pUp;
}

const BULLISH: ReadonlySet<TaoRuling> = new Set(["STRONG_BUY", "BUY", "ACCUMULATE"]);
const BEARISH: ReadonlySet<TaoRuling> = new Set(TAO_RULINGS.filter((r) => r !== "HOLD" && !BULLISH.has(r)));

/** DECISIONS 7: bullish rulings bet on up, REDUCE/SELL/STRONG_SELL/AVOID on down; HOLD names neither. */
export function rulingSide(ruling: TaoRuling): "up" | "down" | "none" {
  return BULLISH.has(ruling) ? "up" : BEARISH.has(ruling) ? "down" : "none";
}

/**
 * The published confidence of a ruling: the calibrated probability that the asset moves in the
 * ruling's direction over the horizon. HOLD names no direction; its confidence is the
 * probability of the likelier direction, so a no-edge HOLD reads as about a coin flip.
 */
export function calibratedConfidence(map: CalibrationMap, ruling: TaoRuling, score: number): number {
  const p = probabilityUp(map, score);
  const side = rulingSide(ruling);
  const c = side === "up" ? p : side === "down" ? 1 - p : Math.max(p, 1 - p);
  return roundTo(c, 4);
}
