import type { SignalStatus } from "../signals/signal-keys.js";
import type { Regime } from "../market/vocabulary.js";

/**
 * One input of the engine: a public signal (SIGNAL_KEYS) or a per-asset feature (ASSET_FEATURES),
 * with the status the signals snapshot gave it. Kept minimal and local so the engine does not
 * depend on the snapshot module's internal shape.
 */
export interface FeatureReading {
  readonly key: string;
  /** null when the signal was never observed (DEAD with no value). */
  readonly value: number | null;
  readonly status: SignalStatus;
}

/** Adaptive multiplier of a signal in a regime (SPEC "Signal weights"); 1.0 until weights exist. */
export type MultiplierLookup = (key: string, regime: Regime | null) => number;

export const unitMultiplier: MultiplierLookup = () => 1;

export interface JudiciaryInput {
  readonly readings: readonly FeatureReading[];
  /** Current HMM regime; null before the first detection. */
  readonly regime: Regime | null;
  /** Spot price of the asset, used to scale price-denominated inputs (MACD histogram). */
  readonly price: number | null;
  readonly multiplier?: MultiplierLookup;
}
