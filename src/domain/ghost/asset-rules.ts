import type { Asset } from "../signals/signal-keys.js";
import { entryThreshold } from "../council/rosters.js";

/**
 * Per-asset entry thresholds (SPEC "TAO status" gates; DECISIONS 7 for BTC, ETH, SOL). Only the
 * council threshold and the weekend block differ between assets; the rest is TAO's form.
 */
export interface AssetRules {
  readonly asset: Asset;
  /** Minimum council confidence; null: the asset has no council (ETH). */
  readonly councilMinConfidence: number | null;
  /**
   * ETH (no council, DECISIONS 7): its council gate checks its own Judiciary verdict instead, a
   * bullish ruling whose calibrated confidence is at least this. Null for the council assets.
   */
  readonly judiciaryMinConfidence: number | null;
  readonly weekendBlock: boolean;
  readonly minDepthUsd: number;
  readonly minVolumeRatio: number;
  readonly emaProximityMinPct: number;
  readonly emaProximityMaxPct: number;
  readonly minQualityScore: number;
  readonly minRsi1h: number;
}

const TAO_FORM = {
  minDepthUsd: 50_000,
  minVolumeRatio: 1.5,
  emaProximityMinPct: 0.3,
  emaProximityMaxPct: 3.5,
  minQualityScore: 65.0,
  minRsi1h: 45,
} as const;

export const ASSET_RULES: Readonly<Record<Asset, AssetRules>> = {
  // The council thresholds are the rosters' (one figure for the gate and its trigger text).
  TAO: { asset: "TAO", councilMinConfidence: entryThreshold("TAO"), judiciaryMinConfidence: null, weekendBlock: true, ...TAO_FORM },
  BTC: { asset: "BTC", councilMinConfidence: entryThreshold("BTC"), judiciaryMinConfidence: null, weekendBlock: false, ...TAO_FORM },
  SOL: { asset: "SOL", councilMinConfidence: entryThreshold("SOL"), judiciaryMinConfidence: null, weekendBlock: true, ...TAO_FORM },
  ETH: { asset: "ETH", councilMinConfidence: null, judiciaryMinConfidence: 0.65, weekendBlock: false, ...TAO_FORM },
};
