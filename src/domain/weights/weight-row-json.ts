import { z } from "zod";
import { REGIMES } from "../market/vocabulary.js";
import { SIGNAL_KEYS } from "../signals/signal-keys.js";
import type { WeightRow } from "./update-weights.js";
import { MAX_MULTIPLIER, MIN_MULTIPLIER } from "./weight-rules.js";

/**
 * The signal-weight table's rows as the stores keep them, read back through this schema (as
 * verdicts, sessions and trades are): a row another build wrote in a shape this one does not read
 * fails where it is read instead of weighting a verdict.
 */
export const weightRowJsonSchema = z.object({
  signal_key: z.enum(SIGNAL_KEYS),
  regime: z.enum(REGIMES),
  multiplier: z.number().min(MIN_MULTIPLIER).max(MAX_MULTIPLIER),
  accuracy: z.number().min(0).max(1),
  data_points: z.number().int().nonnegative(),
  last_updated: z.string(),
});

export function weightRowsFromJson(json: unknown): WeightRow[] {
  return z.array(weightRowJsonSchema).parse(json);
}
