/** One closing price of an asset's hourly series: the close of the bar that ends at `t`. */
export interface PricePoint {
  /** ms since epoch, ascending. */
  readonly t: number;
  readonly close: number;
}

/** Index of the last point at or before `t` (binary search), or -1 before the first. */
export function indexAtOrBefore(prices: readonly PricePoint[], t: number): number {
  let lo = 0;
  let hi = prices.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((prices[mid] as PricePoint).t <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Last price at or before `t`, or null before the first. */
export function priceAt(prices: readonly PricePoint[], t: number): number | null {
  const i = indexAtOrBefore(prices, t);
  return i < 0 ? null : (prices[i] as PricePoint).close;
}

/**
 * Simple return from `t` to `t + horizonMs`, or null when the horizon has not ended inside the
 * series (as of `knownAt`, the moment asking: an outcome is known only once it has matured) or
 * when either end has no price. The end price must be observed at or after the horizon's end
 * minus one bar, so a gap in the data never grades a stale price as an outcome.
 */
export function forwardReturn(prices: readonly PricePoint[], t: number, horizonMs: number, knownAt = Number.POSITIVE_INFINITY): number | null {
  const end = t + horizonMs;
  if (end > knownAt || prices.length === 0) return null;
  const last = prices[prices.length - 1] as PricePoint;
  if (end > last.t) return null;
  const i0 = indexAtOrBefore(prices, t);
  const i1 = indexAtOrBefore(prices, end);
  if (i0 < 0 || i1 < 0) return null;
  const p0 = prices[i0] as PricePoint;
  const p1 = prices[i1] as PricePoint;
  if (p0.close <= 0 || t - p0.t > 3_600_000 || end - p1.t > 3_600_000) return null;
  return p1.close / p0.close - 1;
}
