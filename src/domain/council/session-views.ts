import type { TaoRuling } from "../market/vocabulary.js";
import type { AgentVote, CouncilSession } from "./council-types.js";
import type { ConfidenceBasis } from "../judiciary/judiciary-verdict.js";

/**
 * The `confidence_basis` of a published ruling; rulings stored before issue 16 say so. HOLD names
 * no direction: its confidence is the probability of the likelier one (calibration-map.ts), and
 * the note says so rather than speak of "the ruling's direction".
 */
export function confidenceBasisView(basis: ConfidenceBasis | undefined, ruling: TaoRuling) {
  if (basis === undefined) return { kind: "uncalibrated" as const, horizon_hours: null, fitted_at: null, note: BASIS_NOTES.uncalibrated };
  const direction = ruling === "HOLD" ? HOLD_DIRECTION : "the ruling's direction";
  const note =
    basis.awaitingModelOutcomes === true
      ? BASIS_NOTES.awaiting_model_outcomes(direction)
      : basis.modelOutcomes === true
        ? `${BASIS_NOTES[basis.kind](direction)}${MODEL_OUTCOMES_SUFFIX}`
        : BASIS_NOTES[basis.kind](direction);
  return { kind: basis.kind, horizon_hours: basis.horizonHours, fitted_at: new Date(basis.fittedAt).toISOString(), note };
}

const HOLD_DIRECTION = "the likelier direction (HOLD names none)";

/** What each basis means, in the words a caller reads (docs/evaluation.md says more). */
const BASIS_NOTES = {
  isotonic: (direction: string) =>
    direction === HOLD_DIRECTION
      ? `calibrated: fitted on this stream's graded outcomes, which showed skill; the probability of ${direction}`
      : "calibrated: fitted on this stream's graded outcomes, which showed skill",
  base_rate: (direction: string) => `calibrated: no measurable skill in the trailing window, so the base rate of ${direction}`,
  prior: () => "under a week of graded outcomes: a coin flip (0.5)",
  uncalibrated: "not calibrated: stored before calibration existed",
  awaiting_model_outcomes: (direction: string) =>
    `the language model voted in this session: such sessions do not yet have enough graded outcomes of their own (60 market days) to fit on, so this is the base rate of ${direction}, not a fit`,
} as const;

const MODEL_OUTCOMES_SUFFIX = " (this stream: what the language model said, graded on its own outcomes)";

/** How one vote's confidence was obtained (issue 16): its agent's map, or why there is none. */
export function voteConfidenceBasisView(v: AgentVote) {
  if (v.source === "abstain") return { kind: "abstained" as const, horizon_hours: null, fitted_at: null, note: ABSTAINED_NOTE };
  return confidenceBasisView(v.calibration, v.ruling);
}

const ABSTAINED_NOTE = "no data for this agent: it abstains with HOLD at its fixed low figure (DECISIONS 7), not a probability";

/**
 * Beside every vote list: how the votes' confidences were obtained, in one place a caller reads
 * first. Votes stored before agent calibration carry the agents' own figures.
 */
export function agentsConfidenceBasisView(s: CouncilSession) {
  // Calibration keeps every agent's own figure, an abstention's included; older votes have none.
  if (!s.votes.some((v) => v.rawConfidence !== undefined)) return { kind: "uncalibrated" as const, horizon_hours: null, fitted_at: null, note: AGENTS_UNCALIBRATED_NOTE };
  const basis = s.votes.find((v) => v.calibration !== undefined)?.calibration;
  return {
    kind: "per_agent" as const,
    horizon_hours: basis?.horizonHours ?? null,
    fitted_at: basis === undefined ? null : new Date(basis.fittedAt).toISOString(),
    note: AGENTS_CALIBRATED_NOTE,
  };
}

const AGENTS_CALIBRATED_NOTE =
  "each vote's confidence is the probability, from that agent's own walk-forward map, that the asset moves in the vote's direction over horizon_hours; " +
  "its confidence_basis says how the map was made; raw_confidence is the agent's own figure, which the Chief Judge weighs and the veto reads";
const AGENTS_UNCALIBRATED_NOTE = "the agents' own figures, stored before agent votes were calibrated: not probabilities";

/** The agent's own figure: what the Chief Judge weighed and the veto read. */
const rawConfidenceOf = (v: AgentVote): number => v.rawConfidence ?? v.confidence;

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
  readonly agents: readonly {
    agent: string;
    ruling: TaoRuling;
    confidence: number;
    raw_confidence: number;
    confidence_basis: ReturnType<typeof voteConfidenceBasisView>;
    thesis: string;
  }[];
  readonly agents_confidence_basis: ReturnType<typeof agentsConfidenceBasisView>;
  readonly agents_failed: number;
  readonly session_at: string;
}

/** `GET /v1/council/latest` body without cache fields. */
export function btcCouncilView(s: CouncilSession): BtcCouncilView {
  return {
    ruling: s.ruling,
    confidence: s.confidence,
    confidence_basis: confidenceBasisView(s.calibration, s.ruling),
    consensus: s.consensus,
    score: s.score,
    agents: s.votes.map((v) => ({
      agent: v.agent,
      ruling: v.ruling,
      confidence: v.confidence,
      raw_confidence: rawConfidenceOf(v),
      confidence_basis: voteConfidenceBasisView(v),
      thesis: v.thesis,
    })),
    agents_confidence_basis: agentsConfidenceBasisView(s),
    agents_failed: s.agentsFailed,
    session_at: new Date(s.at).toISOString(),
  };
}

/**
 * The BTC verdict's council fields (SPEC "BTC verdict"), given the mode at response time. Without
 * a recent session (`s` null) the session's fields are null but the mode stands: SPEC's state
 * table moves `council_mode` to `judiciary` exactly when "verdict freshness shows no recent
 * council verdict", and keeps it null only "when no council data exists" (mode null).
 */
export function verdictCouncilFields(s: CouncilSession | null, mode: "council" | "judiciary" | null) {
  if (s === null) {
    return {
      council_ruling: null,
      council_confidence: null,
      council_confidence_basis: null,
      council_consensus: null,
      council_explanation: null,
      council_explanation_source: null,
      council_mode: mode,
      agents: null,
      agents_confidence_basis: null,
    };
  }
  return {
    council_ruling: s.ruling,
    council_confidence: s.confidence,
    council_confidence_basis: confidenceBasisView(s.calibration, s.ruling),
    council_consensus: s.consensusLevel,
    council_explanation: s.plainExplanation,
    council_explanation_source: s.explanationSource,
    council_mode: mode,
    agents: s.votes.map((v) => ({
      name: v.agent,
      vote: v.ruling,
      confidence: v.confidence,
      raw_confidence: rawConfidenceOf(v),
      confidence_basis: voteConfidenceBasisView(v),
      reasoning: v.thesis,
    })),
    agents_confidence_basis: agentsConfidenceBasisView(s),
  };
}

/** TAO or SOL verdict (SPEC "TAO verdict", "SOL verdict"). */
export function assetVerdictView(s: CouncilSession) {
  const agentVotes: Record<string, { ruling: TaoRuling; confidence: number; rawConfidence: number; confidenceBasis: ReturnType<typeof voteConfidenceBasisView> }> = {};
  for (const v of s.votes) agentVotes[v.agent] = { ruling: v.ruling, confidence: v.confidence, rawConfidence: rawConfidenceOf(v), confidenceBasis: voteConfidenceBasisView(v) };
  return {
    id: s.id,
    ruling: s.ruling,
    confidence: s.confidence,
    confidenceBasis: confidenceBasisView(s.calibration, s.ruling),
    agentVotes,
    agentVotesConfidenceBasis: agentsConfidenceBasisView(s),
    ...(s.asset === "TAO" ? { riskFlags: [...s.riskFlags] } : {}),
    chiefRationale: s.chiefRationale,
    plainExplanation: s.plainExplanation,
    explanationSource: s.explanationSource,
    snapshotSignals: { ...s.snapshotSignals },
    createdAt: new Date(s.at).toISOString(),
  };
}
