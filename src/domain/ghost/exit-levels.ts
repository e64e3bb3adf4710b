/**
 * Exit levels of DECISIONS 4, the same for every asset, as multiples of the entry price. The
 * trailing rule and the time limit are our own (DECISIONS leaves them open):
 *  - the trail activates once the high-water mark is 3 % above entry (freqtrade's "trailing
 *    offset") and then sits 1.5 % below it, so its first level (1.0146 × entry) is above
 *    break-even. Between TP1 and +3 % the stop stays at break-even, which keeps both "TP1 then
 *    break-even stop" and "TP1 then trailing stop" reachable, as the issue asks;
 *  - the 7-day limit is the third side of freqtrade's "triple barrier", so capital is not parked
 *    forever in a trade that goes nowhere.
 */
export const STOP_LOSS_RATIO = 0.97;
export const TP1_RATIO = 1.02;
export const TP2_RATIO = 1.045;
export const TRAILING_DISTANCE = 0.015;
export const TRAILING_ACTIVATION_RATIO = 1.03;
export const TP1_CLOSE_FRACTION = 0.5;
export const MAX_HOLD_MS = 7 * 24 * 3_600_000;

export function initialStop(entryPrice: number, storedStop: number | null = null): number {
  const standard = entryPrice * STOP_LOSS_RATIO;
  // "stop-loss at entry × 0.97 unless a tighter stored stop": tighter means higher for a LONG.
  return storedStop !== null && storedStop > standard && storedStop < entryPrice ? storedStop : standard;
}

export function tp1Target(entryPrice: number): number {
  return entryPrice * TP1_RATIO;
}

export function tp2Target(entryPrice: number): number {
  return entryPrice * TP2_RATIO;
}

/** The trailing stop never loosens: it is the higher of the current stop and the active trail. */
export function ratchetStop(currentStop: number, hwm: number, entryPrice: number): number {
  if (hwm < entryPrice * TRAILING_ACTIVATION_RATIO) return currentStop;
  return Math.max(currentStop, hwm * (1 - TRAILING_DISTANCE));
}
