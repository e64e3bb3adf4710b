import { directionOf } from "../judiciary/score-bands.js";
import type { CouncilSession } from "./council-types.js";
import { entryThreshold } from "./rosters.js";

/**
 * The Ghost Traders' council gate (SPEC: "TAO council bullish AND confidence >= 72%"; DECISIONS 7:
 * BTC and SOL ≥ 0.65 on their councils): the council's own ruling and calibrated confidence, in
 * either mode. A judiciary-mode session (no language model) is a calibrated no-skill council near
 * the base rate (DECISIONS 7, "Confidence"), so without a model the gate stays shut: standing
 * aside, not a gate to open with another engine's figure.
 */
export function councilGatePasses(session: Pick<CouncilSession, "asset" | "ruling" | "confidence">): boolean {
  return directionOf(session.ruling) === "BULLISH" && session.confidence >= entryThreshold(session.asset);
}
