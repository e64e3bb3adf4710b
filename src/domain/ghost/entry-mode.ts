import type { BarInput } from "./bar-input.js";
import type { EntryMode } from "./trade.js";

/** RSI(1 h) at or below this inside the last 12 bars makes an entry a pullback (mode B). */
export const PULLBACK_RSI = 35;
export const BREAKOUT_VOLUME_RATIO = 1.5;

/**
 * DECISIONS 4 entry modes, checked most specific first:
 *  C breakout: LOW_VOLATILITY with breakout_imminent and volume expansion (ratio ≥ 1.5);
 *  B pullback: RSI was oversold (≤ 35) within 12 h inside a bullish regime, and has since
 *    recovered past the momentum gate (RSI ≥ 45 is a gate, so "oversold" is read from the
 *    recent low, not the current value);
 *  A trend continuation: everything else that passed the gates (above EMA 200, momentum ok).
 */
export function entryMode(input: BarInput): EntryMode {
  const { regime, indicators } = input;
  if (
    regime?.regime === "LOW_VOLATILITY" &&
    regime.breakoutImminent &&
    indicators.volumeRatio !== null &&
    indicators.volumeRatio >= BREAKOUT_VOLUME_RATIO
  ) {
    return "C";
  }
  if (indicators.rsiLow12h !== null && indicators.rsiLow12h <= PULLBACK_RSI) return "B";
  return "A";
}
