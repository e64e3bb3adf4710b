import { calibratedConfidence, type CalibrationMap } from "../calibration/calibration-map.js";
import type { CouncilSession } from "./council-types.js";

/**
 * The session as published: `confidence` becomes the calibrated probability that the asset
 * moves in the ruling's direction over the horizon. The map is fitted on the council's
 * judiciary-mode stream, so it applies as is to judiciary-mode sessions only; a session in which
 * the language model voted has a different score distribution and no outcomes of its own yet,
 * so it gets the base rate of the same window (`calibration.kind` = `base_rate`) until enough
 * council-mode outcomes exist to fit one.
 */
export function calibratedSession(session: CouncilSession, map: CalibrationMap): CouncilSession {
  const model = session.mode === "council";
  const used: CalibrationMap = model && map.kind === "isotonic" ? { ...map, kind: "base_rate", steps: [] } : map;
  return {
    ...session,
    confidence: calibratedConfidence(used, session.ruling, session.score),
    rawConfidence: session.confidence,
    calibration: { kind: used.kind, horizonHours: used.horizonHours, fittedAt: used.fittedAt, outcomes: used.outcomes, baseRate: used.baseRate, ...(model ? { awaitingModelOutcomes: true } : {}) },
  };
}
