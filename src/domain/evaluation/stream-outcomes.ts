import type { CalibratedHour } from "../calibration/walk-forward-calibrator.js";
import { forwardReturn, type PricePath } from "../calibration/price-path.js";
import { HELD_OUT_FROM, type EvaluatedHour } from "./verdict-evaluation.js";
import { GradedHours } from "./graded-hours.js";
import { runSteps, type Steps } from "./steps.js";

const HOUR = 3_600_000;
/** Rows graded per step: about 2 ms of binary searches over a history of hourly prices. */
const ROWS_PER_STEP = 250;
/** Rows looked at per step when an earlier result settles them (a check each, no search). */
const ROWS_VISITED_PER_STEP = 4_000;

/**
 * `withOutcomes` for the evaluation protocol's two spans (DECISIONS 7): rows up to 2022-12-31 are
 * graded as known at 2023-01-01, so no in-sample figure reads a price of the held-out span (a
 * 72 h outcome of a ruling on 2022-12-31 would end in January 2023; it is left ungraded).
 */
export function withOutcomesBySpan(rows: readonly CalibratedHour[], prices: PricePath, knownAt: number): EvaluatedHour[] {
  const before = rows.filter((r) => r.at < HELD_OUT_FROM);
  const after = rows.filter((r) => r.at >= HELD_OUT_FROM);
  return [...withOutcomes(before, prices, Math.min(knownAt, HELD_OUT_FROM)), ...withOutcomes(after, prices, knownAt)];
}

/** Attaches to each published row the returns that followed it, as known at `knownAt`. */
export function withOutcomes(rows: readonly CalibratedHour[], prices: PricePath, knownAt: number): EvaluatedHour[] {
  return runSteps(runSteps(withOutcomesSteps(rows, prices, knownAt)).rowsSteps());
}

/**
 * `withOutcomes` in steps (see steps.ts), continuing an earlier result, in columns (see
 * graded-hours.ts). `previous` is what an earlier call returned; `rows` are the rows published
 * after its last one. Settled rows of `previous` are kept as they are (an outcome, once its
 * horizon has ended, is a fixed pair of closes) and its open ones graded again from their own
 * fields, so a recomputation every few hours grades only the rows of the last few days; and the
 * caller need not keep the calibrated rows it has already handed over (a second copy of every
 * row, for the process's life, that the collector would mark on every full collection).
 * Rows published before `from` are left out, of `previous` as of `rows`: a caller that evaluates
 * a trailing window passes its start, so what it keeps and copies does not grow with uptime.
 */
export function* withOutcomesSteps(
  rows: readonly CalibratedHour[],
  prices: PricePath,
  knownAt: number,
  previous = new GradedHours(),
  from = Number.NEGATIVE_INFINITY,
): Steps<GradedHours> {
  const last = previous.lastAt();
  if (last !== null && rows[0] !== undefined && rows[0].at <= last) throw new Error("rows must follow the previous result's last row");
  const out = new GradedHours(previous.length + rows.length);
  let work = 0;
  const step = (cost: number): boolean => {
    work += cost;
    if (work < ROWS_VISITED_PER_STEP) return false;
    work = 0;
    return true;
  };
  for (let i = 0; i < previous.length; i++) {
    if (previous.at(i) < from) continue;
    const keep = previous.settled(i);
    if (keep) out.pushFrom(previous, i);
    else out.push(graded(previous.row(i), prices, knownAt));
    if (step(keep ? 1 : ROWS_VISITED_PER_STEP / ROWS_PER_STEP)) yield;
  }
  for (const r of rows) {
    if (r.at < from) continue;
    out.push(graded(r, prices, knownAt));
    if (step(ROWS_VISITED_PER_STEP / ROWS_PER_STEP)) yield;
  }
  return out;
}

/** The row with the returns that followed it, as known at `knownAt`. */
function graded(r: Pick<EvaluatedHour, "at" | "ruling" | "score" | "confidence" | "baseRate">, prices: PricePath, knownAt: number): EvaluatedHour {
  const forward = {
    h4: forwardReturn(prices, r.at, 4 * HOUR, knownAt),
    h24: forwardReturn(prices, r.at, 24 * HOUR, knownAt),
    h72: forwardReturn(prices, r.at, 72 * HOUR, knownAt),
  };
  return { at: r.at, ruling: r.ruling, score: r.score, confidence: r.confidence, baseRate: r.baseRate, forward };
}
