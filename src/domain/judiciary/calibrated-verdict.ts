import { calibratedConfidence, type CalibrationMap } from "../calibration/calibration-map.js";
import type { JudiciaryVerdict } from "./judiciary-verdict.js";

/**
 * The verdict as published: `confidence` is the calibrated probability that the asset moves in
 * the ruling's direction over the map's horizon (DECISIONS 7), and `calibration` says how it was
 * obtained; the engine's own coverage-and-agreement figure stays as `rawConfidence`.
 */
export function calibratedVerdict(v: JudiciaryVerdict, map: CalibrationMap): JudiciaryVerdict {
  return {
    ...v,
    confidence: calibratedConfidence(map, v.ruling, v.score),
    rawConfidence: v.confidence,
    calibration: { kind: map.kind, horizonHours: map.horizonHours, fittedAt: map.fittedAt, outcomes: map.outcomes, baseRate: map.baseRate },
  };
}
