import type { TaoRuling } from "../market/vocabulary.js";
import type { CouncilSession } from "./council-types.js";
import type { ConfidenceBasis } from "../judiciary/judiciary-verdict.js";

/** The `confidence_basis` of a published ruling; rulings stored before issue 16 say so. */
export function confidenceBasisView(basis: ConfidenceBasis | undefined) {
  if (basis === undefined) return { kind: "uncalibrated" as const, horizon_hours: null, fitted_at: null };
  return { kind: basis.kind, horizon_hours: basis.horizonHours, fitted_at: new Date(basis.fittedAt).toISOString() };
}

/**
 * SPEC-shaped views of a stored session, so every endpoint shows a session the same way.
 * Pure mapping: caching fields and envelopes are the routes' business.
 */

export interface BtcCouncilView {
  readonly ruling: TaoRuling;
  readonly confidence: number;
  readonly confidence_basis: ReturnType<typeof confidenceBasisView>;
  readonly consensus: CouncilSession["consensus"];
  readonly score: number;
  readonly agents: readonly { agent: string; ruling: TaoRuling; confidence: number; thesis: string }[];
  readonly agents_failed: number;
  readonly session_at: string;
}

/** `GET /v1/council/latest` body without cache fields. */
export function btcCouncilView(s: CouncilSession): BtcCouncilView {
  return {
    ruling: s.ruling,
    confidence: s.confidence,
    confidence_basis: confidenceBasisView(s.calibration),
    consensus: s.consensus,
    score: s.score,
    agents: s.votes.map((v) => ({ agent: v.agent, ruling: v.ruling, confidence: v.confidence, thesis: v.thesis })),
    agents_failed: s.agentsFailed,
    session_at: new Date(s.at).toISOString(),
  };
}

/** The BTC verdict's council fields (SPEC "BTC verdict"), given the mode at response time. */
export function verdictCouncilFields(s: CouncilSession | null, mode: "council" | "judiciary" | null) {
  if (s === null) {
    return { council_ruling: null, council_confidence: null, council_confidence_basis: null, council_consensus: null, council_explanation: null, council_mode: null, agents: null };
  }
  return {
    council_ruling: s.ruling,
    council_confidence: s.confidence,
    council_confidence_basis: confidenceBasisView(s.calibration),
    council_consensus: s.consensusLevel,
    council_explanation: s.plainExplanation,
    council_mode: mode,
    agents: s.votes.map((v) => ({ name: v.agent, vote: v.ruling, confidence: v.confidence, reasoning: v.thesis })),
  };
}

/** TAO or SOL verdict (SPEC "TAO verdict", "SOL verdict"). */
export function assetVerdictView(s: CouncilSession) {
  const agentVotes: Record<string, { ruling: TaoRuling; confidence: number }> = {};
  for (const v of s.votes) agentVotes[v.agent] = { ruling: v.ruling, confidence: v.confidence };
  return {
    id: s.id,
    ruling: s.ruling,
    confidence: s.confidence,
    confidenceBasis: confidenceBasisView(s.calibration),
    agentVotes,
    ...(s.asset === "TAO" ? { riskFlags: [...s.riskFlags] } : {}),
    chiefRationale: s.chiefRationale,
    plainExplanation: s.plainExplanation,
    snapshotSignals: { ...s.snapshotSignals },
    createdAt: new Date(s.at).toISOString(),
  };
}
