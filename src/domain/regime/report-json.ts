import { z } from "zod";
import { REGIMES } from "../market/vocabulary.js";
import type { RegimeReport } from "./regime-report.js";
import { STRENGTHS } from "./strength.js";
import { VOLATILITY_STATES } from "./volatility-state.js";

/**
 * A RegimeReport as the stores keep it (plain JSON, epoch-ms times). Read back through this
 * schema, so a row written by an older build that no longer fits fails loudly instead of
 * reaching a client half-formed.
 */
export const regimeReportJsonSchema = z.object({
  regime: z.enum(REGIMES),
  confidence: z.number().min(0).max(1),
  btcPrice: z.number().nullable(),
  detectedAt: z.number().int(),
  strength: z.enum(STRENGTHS),
  subRegime: z.string().nullable(),
  volatilityState: z.enum(VOLATILITY_STATES),
  chopScore: z.number().nullable(),
  breakoutImminent: z.boolean(),
  compatibleStrategies: z.array(z.string()),
  incompatibleStrategies: z.array(z.string()),
  transitionProbabilities: z.record(z.enum(REGIMES), z.number()),
  regimeAgeHours: z.number(),
});
export type RegimeReportJson = z.infer<typeof regimeReportJsonSchema>;

export function regimeReportToJson(r: RegimeReport): RegimeReportJson {
  return {
    ...r,
    compatibleStrategies: [...r.compatibleStrategies],
    incompatibleStrategies: [...r.incompatibleStrategies],
    transitionProbabilities: { ...r.transitionProbabilities },
  };
}

export function regimeReportFromJson(json: unknown): RegimeReport {
  return regimeReportJsonSchema.parse(json);
}
