import type { CalibratedHour } from "../calibration/walk-forward-calibrator.js";
import { forwardReturn, type PricePoint } from "../calibration/price-path.js";
import { EVALUATION_HORIZONS, type EvaluatedHour, type EvaluationHorizon } from "./verdict-evaluation.js";
import { runSteps, type Steps } from "./steps.js";

const HOUR = 3_600_000;
/** Rows graded per step: about 2 ms of binary searches over a history of hourly prices. */
const ROWS_PER_STEP = 250;
/** Rows looked at per step when an earlier result settles them (a check each, no search). */
const ROWS_VISITED_PER_STEP = 4_000;

/** Attaches to each published row the returns that followed it, as known at `knownAt`. */
export function withOutcomes(rows: readonly CalibratedHour[], prices: readonly PricePoint[], knownAt: number): EvaluatedHour[] {
  return runSteps(withOutcomesSteps(rows, prices, knownAt));
}

/** True when every horizon of the row has an outcome: later knowledge cannot change it. */
function settled(row: EvaluatedHour): boolean {
  return EVALUATION_HORIZONS.every((h) => row.forward[h] !== null);
}

/**
 * `withOutcomes` in steps (see steps.ts). `previous` is an earlier result for a prefix of the
 * same rows: its settled rows are kept as they are (an outcome, once its horizon has ended, is
 * a fixed pair of closes), so a recomputation every few hours grades only the rows of the last
 * few days instead of rebuilding ~29,000 objects, which cost about 90 ms and the garbage
 * collector's pauses with them.
 */
export function* withOutcomesSteps(
  rows: readonly CalibratedHour[],
  prices: readonly PricePoint[],
  knownAt: number,
  previous: readonly EvaluatedHour[] = [],
): Steps<EvaluatedHour[]> {
  const out: EvaluatedHour[] = [];
  let work = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as CalibratedHour;
    const before = previous[i];
    if (before !== undefined && before.at === r.at && settled(before)) {
      out.push(before);
      work += 1;
    } else {
      const forward = {} as Record<EvaluationHorizon, number | null>;
      for (const h of EVALUATION_HORIZONS) forward[h] = forwardReturn(prices, r.at, h * HOUR, knownAt);
      out.push({ at: r.at, ruling: r.ruling, score: r.score, confidence: r.confidence, baseRate: r.baseRate, forward });
      work += ROWS_VISITED_PER_STEP / ROWS_PER_STEP;
    }
    if (work >= ROWS_VISITED_PER_STEP) {
      work = 0;
      yield;
    }
  }
  return out;
}
