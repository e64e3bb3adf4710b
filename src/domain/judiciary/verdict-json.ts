import { z } from "zod";
import { CALIBRATION_KINDS } from "../calibration/calibration-map.js";
import { REGIMES, TAO_RULINGS } from "../market/vocabulary.js";
import { ASSETS, SIGNAL_STATUSES } from "../signals/signal-keys.js";
import type { JudiciaryVerdict } from "./judiciary-verdict.js";

/** How a published confidence was obtained, as the stores keep it (verdicts, sessions, votes). */
export const confidenceBasisJsonSchema = z.object({
  kind: z.enum(CALIBRATION_KINDS),
  horizonHours: z.number().int().positive(),
  fittedAt: z.number().int(),
  outcomes: z.number().int().nonnegative(),
  baseRate: z.number().min(0).max(1),
  awaitingModelOutcomes: z.boolean().optional(),
  modelOutcomes: z.boolean().optional(),
});

const evidenceJsonSchema = z.object({
  key: z.string().min(1),
  value: z.number().nullable(),
  status: z.enum(SIGNAL_STATUSES),
  contribution: z.number(),
  multiplier: z.number(),
  points: z.number(),
  reason: z.string(),
});

/**
 * A JudiciaryVerdict as the stores keep it. Read back through this schema, like regime reports:
 * a row another build wrote in a shape this one does not read fails loudly (the reading turn or
 * request fails and is retried) instead of reaching a Ghost Trader or a client half-formed.
 */
export const judiciaryVerdictJsonSchema = z.object({
  asset: z.enum(ASSETS),
  ruling: z.enum(TAO_RULINGS),
  score: z.number().min(-100).max(100),
  confidence: z.number().min(0).max(1),
  rawConfidence: z.number().min(0).max(1).optional(),
  calibration: confidenceBasisJsonSchema.optional(),
  regime: z.enum(REGIMES).nullable(),
  coverage: z.object({ live: z.number().int(), stale: z.number().int(), dead: z.number().int(), total: z.number().int() }),
  evidence: z.array(evidenceJsonSchema),
  drivers: z.array(z.string()),
  summary: z.string(),
  macroContext: z.object({ assessment: z.enum(["RISK_ON", "NEUTRAL", "RISK_OFF"]), key_driver: z.string(), primary_risk: z.string() }).nullable(),
});

export function judiciaryVerdictFromJson(json: unknown): JudiciaryVerdict {
  return judiciaryVerdictJsonSchema.parse(json);
}
