import type { Config } from "../config/env.js";
import { councilTurnBoundMs } from "../llm/council-sessions.js";

/** Without a language model no turn legitimately takes more than seconds; two minutes is stuck. */
const BASE_STALL_MS = 120_000;
/** Room after a council's model time for its store reads and writes and the turn's commit. */
const COUNCIL_TURN_MARGIN_MS = 30_000;

/**
 * How long an actor turn may run before readiness (and, on Dapr, the app health probe) calls the
 * host stuck. A council asking a language model may wait a session budget for a slot and then use
 * one (LLM_SESSION_BUDGET_MS, 90 s by default): with a fixed 120 s a slow model server made a
 * healthy service unready every 30 minutes, and on Dapr moved its actors away.
 */
export function actorStallMs(config: Pick<Config, "LLM_BASE_URL" | "LLM_MODEL" | "LLM_SESSION_BUDGET_MS">): number {
  if (!config.LLM_BASE_URL || !config.LLM_MODEL) return BASE_STALL_MS;
  return Math.max(BASE_STALL_MS, councilTurnBoundMs(config.LLM_SESSION_BUDGET_MS) + COUNCIL_TURN_MARGIN_MS);
}
