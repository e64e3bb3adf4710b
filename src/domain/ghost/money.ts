import { roundTo } from "../numbers/round-to.js";

/**
 * Rounding of recorded amounts. Arithmetic runs in float64 on unrounded values; a value is rounded
 * once, when it is recorded, so rounding errors never compound across fills:
 *  - USD amounts (P&L, fees): cents, half away from zero;
 *  - sizes: 1e-8 units, always down (never buy more than the cash allows);
 *  - percentages: 4 decimals.
 * Every input is checked: a non-finite number throws instead of spreading NaN into a ledger.
 */
export function roundUsd(x: number): number {
  return roundTo(finite(x, "usd"), 2);
}

export function roundPct(x: number): number {
  return roundTo(finite(x, "pct"), 4);
}

export function floorSize(x: number): number {
  const v = finite(x, "size");
  // The epsilon keeps 0.3 × 1e8 = 29999999.999999996 from flooring a whole satoshi away.
  return Math.floor(v * 1e8 + 1e-6) / 1e8;
}

export function finite(x: number, what: string): number {
  if (!Number.isFinite(x)) throw new RangeError(`${what} must be a finite number, got ${x}`);
  return x;
}

export function positive(x: number, what: string): number {
  if (!(Number.isFinite(x) && x > 0)) throw new RangeError(`${what} must be a positive finite number, got ${x}`);
  return x;
}
