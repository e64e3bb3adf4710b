import { roundTo } from "../numbers/round-to.js";

/**
 * SPEC "Signal weights" rules and our choices for what it leaves open:
 *  - bounds [0.30, 2.00]; 1.0 below 10 data points. The window ignores track-record restarts
 *    and holds a row's most recent calls (DECISIONS 7), so data points never fall back under 10
 *    and this rule never has to override the 20 % cap;
 *  - at most 20 % relative change per 6-hour cycle, so one bad week cannot silence a signal;
 *  - target multiplier from the hit rate against the no-skill chance `b` of the same calls
 *    (issue 16: random entries with these exits win ~58 %, so 50 % is not "no skill"):
 *      skill = (accuracy − b) / (1 − b) above b, (accuracy − b) / b below it, in [−1, 1];
 *      target = 1 + skill → no skill → 1.0, always right → 2.0, always wrong → 0.30 (clamped).
 *    With b = 0.5 this is the former 1 + 2 × (accuracy − 0.5);
 *  - decay is the window: only the most recent 50 graded calls of a (signal, regime) count, so
 *    old evidence drops out instead of being averaged in forever.
 * Multipliers are stored with 4 decimals, rounded toward the previous value when the cap binds so
 * the stored number itself respects the cap.
 */
export const MIN_MULTIPLIER = 0.3;
export const MAX_MULTIPLIER = 2.0;
export const MIN_DATA_POINTS = 10;
export const MAX_CHANGE = 0.2;
export const WINDOW_TRADES = 50;
export const UPDATE_INTERVAL_MS = 6 * 3_600_000;

/** `baseline`: the chance the same calls are right with no skill (0.5 = a coin flip). */
export function targetMultiplier(accuracy: number, baseline = 0.5): number {
  const b = clamp(baseline, 1e-6, 1 - 1e-6);
  const skill = accuracy >= b ? (accuracy - b) / (1 - b) : (accuracy - b) / b;
  return clamp(1 + skill, MIN_MULTIPLIER, MAX_MULTIPLIER);
}

export function nextMultiplier(previousRaw: number, accuracy: number, dataPoints: number, baseline = 0.5): number {
  if (dataPoints < MIN_DATA_POINTS) return 1.0;
  // A previous value outside the range (or not a number) is taken at the nearest valid one, so
  // the 20 % band around it can never carry the result outside [MIN, MAX].
  const previous = Number.isFinite(previousRaw) ? clamp(previousRaw, MIN_MULTIPLIER, MAX_MULTIPLIER) : 1.0;
  if (!Number.isFinite(accuracy) || !Number.isFinite(baseline)) return previous;
  const lo = Math.max(MIN_MULTIPLIER, previous * (1 - MAX_CHANGE));
  const hi = Math.min(MAX_MULTIPLIER, previous * (1 + MAX_CHANGE));
  const m = clamp(targetMultiplier(accuracy, baseline), lo, hi);
  const r = roundTo(m, 4);
  // The 1e-9 tolerance keeps 0.8 × 0.8 = 0.6400000000000001 from rounding to 0.6401.
  if (r > hi + 1e-9) return Math.floor(hi * 1e4) / 1e4;
  if (r < lo - 1e-9) return Math.ceil(lo * 1e4) / 1e4;
  return r;
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}
