import { directionOf } from "../judiciary/score-bands.js";
import type { CouncilSession } from "./council-types.js";
import { entryThreshold } from "./rosters.js";

/**
 * The Ghost Traders' council gate: a bullish council ruling at or above the council's entry
 * threshold (TAO 0.72, SOL 0.65, BTC 0.65).
 */
export function councilGatePasses(session: Pick<CouncilSession, "asset" | "ruling" | "confidence">): boolean {
  return directionOf(session.ruling) === "BULLISH" && session.confidence >= entryThreshold(session.asset);
}
