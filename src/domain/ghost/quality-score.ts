import { roundTo } from "../numbers/round-to.js";

/**
 * Entry quality score 0-100 (DECISIONS 7): five parts, each a linear ramp clamped to its range,
 * so every input moves the score smoothly and a missing input scores 0 for its part:
 *  - trend alignment, 25: EMA-200 distance 0 % → 0, ≥ 1 % → 25 (price above the long trend);
 *  - momentum, 20: RSI(1 h) ≤ 40 → 0, ≥ 60 → 20;
 *  - volume expansion, 15: volume ratio ≤ 1.0 → 0, ≥ 2.0 → 15;
 *  - decision confidence, 20: council confidence (judiciary's when no council) × 20;
 *  - regime confidence, 20: regime confidence × 20 when the regime is favourable, else 0.
 * Rounded to 1 decimal, the precision SPEC shows for the 65.0 threshold.
 */
export interface QualityInputs {
  readonly emaDistancePct: number | null;
  readonly rsi1h: number | null;
  readonly volumeRatio: number | null;
  readonly decisionConfidence: number | null;
  readonly regimeConfidence: number | null;
  readonly regimeFavourable: boolean;
}

export interface QualityScore {
  readonly trend: number;
  readonly momentum: number;
  readonly volume: number;
  readonly confidence: number;
  readonly regime: number;
  readonly total: number;
}

export function qualityScore(q: QualityInputs): QualityScore {
  const trend = 25 * ramp(q.emaDistancePct, 0, 1);
  const momentum = 20 * ramp(q.rsi1h, 40, 60);
  const volume = 15 * ramp(q.volumeRatio, 1, 2);
  const confidence = 20 * ramp(q.decisionConfidence, 0, 1);
  const regime = q.regimeFavourable ? 20 * ramp(q.regimeConfidence, 0, 1) : 0;
  const parts = { trend, momentum, volume, confidence, regime };
  return { ...parts, total: roundTo(exactTotal(parts), 1) };
}

/**
 * The score the quality gate compares: the unrounded sum. `total` is rounded to one decimal for
 * display, and comparing it would let a 64.95 pass a ">= 65.0" gate.
 */
export function exactTotal(q: Omit<QualityScore, "total">): number {
  return q.trend + q.momentum + q.volume + q.confidence + q.regime;
}

function ramp(x: number | null, lo: number, hi: number): number {
  if (x === null || !Number.isFinite(x)) return 0;
  return Math.min(1, Math.max(0, (x - lo) / (hi - lo)));
}
