import { roundTo } from "../ghost/money.js";

/**
 * SPEC "Signal weights" rules and our choices for what it leaves open:
 *  - bounds [0.30, 2.00]; 1.0 below 10 data points (this wins over the 20 % cap: SPEC states it
 *    as an absolute rule, and a row under 10 points has no evidence to keep it away from 1.0);
 *  - at most 20 % relative change per 6-hour cycle, so one bad week cannot silence a signal;
 *  - target multiplier from accuracy, linear and centred on a coin flip:
 *      target = 1 + 2 × (accuracy − 0.5)  → 50 % right → 1.0, 100 % → 2.0, 15 % → 0.30 (clamped)
 *    so a signal that is right more often than not is amplified, one that is wrong is damped;
 *  - decay is the window: only the most recent 50 closed trades of the regime are graded, so old
 *    evidence drops out instead of being averaged in forever.
 * Multipliers are stored with 4 decimals, rounded toward the previous value when the cap binds so
 * the stored number itself respects the cap.
 */
export const MIN_MULTIPLIER = 0.3;
export const MAX_MULTIPLIER = 2.0;
export const MIN_DATA_POINTS = 10;
export const MAX_CHANGE = 0.2;
export const WINDOW_TRADES = 50;
export const UPDATE_INTERVAL_MS = 6 * 3_600_000;

export function targetMultiplier(accuracy: number): number {
  return clamp(1 + 2 * (accuracy - 0.5), MIN_MULTIPLIER, MAX_MULTIPLIER);
}

export function nextMultiplier(previous: number, accuracy: number, dataPoints: number): number {
  if (dataPoints < MIN_DATA_POINTS) return 1.0;
  if (!Number.isFinite(accuracy)) return clamp(previous, MIN_MULTIPLIER, MAX_MULTIPLIER);
  const lo = Math.max(MIN_MULTIPLIER, previous * (1 - MAX_CHANGE));
  const hi = Math.min(MAX_MULTIPLIER, previous * (1 + MAX_CHANGE));
  const m = clamp(targetMultiplier(accuracy), lo, hi);
  const r = roundTo(m, 4);
  // The 1e-9 tolerance keeps 0.8 × 0.8 = 0.6400000000000001 from rounding to 0.6401.
  if (r > hi + 1e-9) return Math.floor(hi * 1e4) / 1e4;
  if (r < lo - 1e-9) return Math.ceil(lo * 1e4) / 1e4;
  return r;
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}
