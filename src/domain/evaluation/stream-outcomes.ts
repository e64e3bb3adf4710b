import type { CalibratedHour } from "../calibration/walk-forward-calibrator.js";
import { forwardReturn, type PricePoint } from "../calibration/price-path.js";
import { EVALUATION_HORIZONS, type EvaluatedHour, type EvaluationHorizon } from "./verdict-evaluation.js";

const HOUR = 3_600_000;

/** Attaches to each published row the returns that followed it, as known at `knownAt`. */
export function withOutcomes(rows: readonly CalibratedHour[], prices: readonly PricePoint[], knownAt: number): EvaluatedHour[] {
  return rows.map((r) => {
    const forward = {} as Record<EvaluationHorizon, number | null>;
    for (const h of EVALUATION_HORIZONS) forward[h] = forwardReturn(prices, r.at, h * HOUR, knownAt);
    return { at: r.at, ruling: r.ruling, score: r.score, confidence: r.confidence, baseRate: r.baseRate, forward };
  });
}
