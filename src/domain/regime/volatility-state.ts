export const VOLATILITY_STATES = ["EXPANDING", "COMPRESSED", "NORMAL", "ELEVATED", "CONTRACTING"] as const;
export type VolatilityState = (typeof VOLATILITY_STATES)[number];

/** Levels and day-over-day changes, in training-window standard deviations of log volatility. */
export const ELEVATED_Z = 1;
export const COMPRESSED_Z = -0.75;
export const CHANGE_Z = 0.5;

/**
 * From the standardized log realized volatility now and 24 bars ago. The level wins over the
 * change: volatility that is already elevated is reported ELEVATED even while still rising.
 */
export function volatilityState(volZNow: number, volZDayAgo: number): VolatilityState {
  if (volZNow >= ELEVATED_Z) return "ELEVATED";
  if (volZNow <= COMPRESSED_Z) return "COMPRESSED";
  const change = volZNow - volZDayAgo;
  if (change >= CHANGE_Z) return "EXPANDING";
  if (change <= -CHANGE_Z) return "CONTRACTING";
  return "NORMAL";
}
