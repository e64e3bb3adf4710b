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

export interface CouncilGateDecision {
  readonly passes: boolean;
  /** Whose ruling decided: the council's, or (judiciary-mode session) the asset's Judiciary verdict. */
  readonly decidedBy: "council" | "judiciary";
  /** The ruling and confidence that were checked; null when the judiciary verdict was missing. */
  readonly ruling: CouncilSession["ruling"] | null;
  readonly confidence: number | null;
}

/**
 * The council gate with the judiciary-mode rule (lead decision, issue 7): a judiciary-mode
 * session's confidence is capped at 0.47 (rule votes, baseline confidence) and could never clear
 * the 0.65 / 0.72 entry thresholds, so without a language model no Ghost Trader could ever enter.
 * When the session's mode is `judiciary`, the gate is decided by the asset's Judiciary verdict
 * instead: a bullish ruling with confidence at or above the same threshold. No verdict: closed.
 */
export function councilGateDecision(
  session: Pick<CouncilSession, "asset" | "mode" | "ruling" | "confidence">,
  judiciary: { readonly ruling: CouncilSession["ruling"]; readonly confidence: number } | null,
): CouncilGateDecision {
  if (session.mode === "council") {
    return { passes: councilGatePasses(session), decidedBy: "council", ruling: session.ruling, confidence: session.confidence };
  }
  if (judiciary === null) return { passes: false, decidedBy: "judiciary", ruling: null, confidence: null };
  const passes = directionOf(judiciary.ruling) === "BULLISH" && judiciary.confidence >= entryThreshold(session.asset);
  return { passes, decidedBy: "judiciary", ruling: judiciary.ruling, confidence: judiciary.confidence };
}
