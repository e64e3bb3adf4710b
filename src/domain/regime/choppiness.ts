import type { Candle } from "../signals/reading.js";

export const CHOP_PERIOD = 14;

/**
 * Choppiness Index over the last `period` bars scaled to 0..1 (the usual 0..100 / 100):
 * log10(Σ true range / (highest high − lowest low)) / log10(period). Near 0 the bars add up to
 * one straight move (trending); near 1 they retrace each other (choppy). null before enough bars.
 */
export function choppiness(candles: readonly Candle[], period = CHOP_PERIOD): number | null {
  const n = candles.length;
  if (n < period + 1) return null;
  let sumTr = 0;
  let hi = -Infinity;
  let lo = Infinity;
  for (let i = n - period; i < n; i++) {
    const c = candles[i] as Candle;
    const prevClose = (candles[i - 1] as Candle).c;
    sumTr += Math.max(c.h, prevClose) - Math.min(c.l, prevClose);
    if (c.h > hi) hi = c.h;
    if (c.l < lo) lo = c.l;
  }
  const range = hi - lo;
  // A dead-flat market has no direction at all: maximally choppy, not NaN.
  if (!(range > 0) || !(sumTr > 0)) return 1;
  const raw = Math.log10(sumTr / range) / Math.log10(period);
  return Math.max(0, Math.min(1, raw));
}
