import { z } from "zod";
import { TAO_RULINGS } from "../market/vocabulary.js";
import { confidenceBasisJsonSchema } from "../judiciary/verdict-json.js";
import type { CouncilSession } from "./council-types.js";
import { TAO_RISK_FLAGS } from "./tao-risk-flags.js";

const agentVoteJsonSchema = z.object({
  agent: z.string().min(1),
  ruling: z.enum(TAO_RULINGS),
  confidence: z.number().min(0).max(1),
  thesis: z.string(),
  source: z.enum(["model", "rule", "abstain"]),
  missing: z.array(z.string()),
  score: z.number().optional(),
  rawConfidence: z.number().min(0).max(1).optional(),
  calibration: confidenceBasisJsonSchema.optional(),
});

/**
 * A CouncilSession as the stores keep it, read back through this schema (see
 * `judiciaryVerdictJsonSchema` for why): a session of a shape this build does not read fails
 * loudly instead of reaching a route, a Ghost Trader or the council-mode calibration half-formed.
 */
export const councilSessionJsonSchema = z.object({
  id: z.string().min(1),
  asset: z.enum(["BTC", "TAO", "SOL"]),
  at: z.number().int(),
  mode: z.enum(["council", "judiciary"]),
  ruling: z.enum(TAO_RULINGS),
  confidence: z.number().min(0).max(1),
  rawConfidence: z.number().min(0).max(1).optional(),
  calibration: confidenceBasisJsonSchema.optional(),
  score: z.number(),
  consensus: z.enum(["BULLISH", "BEARISH", "NEUTRAL", "SPLIT"]),
  consensusLevel: z.enum(["UNANIMOUS", "STRONG", "MODERATE", "SPLIT"]),
  votes: z.array(agentVoteJsonSchema),
  agentsSucceeded: z.number().int().nonnegative(),
  agentsFailed: z.number().int().nonnegative(),
  vetoedBy: z.array(z.string()),
  riskFlags: z.array(z.enum(TAO_RISK_FLAGS)),
  chiefRationale: z.string(),
  plainExplanation: z.string(),
  explanationSource: z.enum(["model", "template"]),
  snapshotSignals: z.record(z.string(), z.number().nullable()),
});

export function councilSessionFromJson(json: unknown): CouncilSession {
  return councilSessionJsonSchema.parse(json);
}
