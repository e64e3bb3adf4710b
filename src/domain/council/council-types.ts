import type { ConfidenceBasis } from "../judiciary/judiciary-verdict.js";
import type { Regime, TaoRuling } from "../market/vocabulary.js";
import type { CalendarStatusValue } from "./calendar-status.js";
import type { FeatureReading } from "../judiciary/feature-reading.js";
import type { TaoRiskFlag } from "./tao-risk-flags.js";

export type CouncilAsset = "BTC" | "TAO" | "SOL";

export interface AgentDefinition {
  /** Display name exactly as SPEC spells it (BTC with spaces, TAO and SOL with underscores). */
  readonly name: string;
  /** Share of the vote; a roster's weights sum to 1. */
  readonly weight: number;
  /** SPEC (SOL) and DECISIONS 7 (TAO): an AVOID vote above 0.7 confidence forces AVOID. */
  readonly veto: boolean;
  /** Plain description of the agent's domain, used in its prompt. */
  readonly domain: string;
  /** Signal or feature keys this agent sees; it sees nothing else. */
  readonly inputs: readonly string[];
}

export interface CouncilRoster {
  readonly asset: CouncilAsset;
  readonly agents: readonly AgentDefinition[];
  /** Rulings an agent of this council may vote (and the model may answer). */
  readonly voteRulings: readonly TaoRuling[];
  /** Minimum council confidence for a Ghost Trader entry (TAO 0.72, SOL 0.65, BTC 0.65). */
  readonly entryThreshold: number;
}

/** Where a vote came from: the language model, the agent's deterministic rule, or no data at all. */
export type VoteSource = "model" | "rule" | "abstain";

export interface AgentVote {
  readonly agent: string;
  readonly ruling: TaoRuling;
  /**
   * As deliberated: the agent's own figure (what the Chief Judge weighs and the veto reads).
   * As published: the calibrated probability of a move in the vote's direction (issue 16),
   * with the agent's own figure kept as `rawConfidence`. An abstaining agent keeps its 0.2.
   */
  readonly confidence: number;
  readonly thesis: string;
  readonly source: VoteSource;
  /** Inputs of the agent that had no live or stale data. */
  readonly missing: readonly string[];
  /** A rule vote's score (−100…100) before the bands: what the agent's calibration map reads. */
  readonly score?: number;
  /** The agent's own figure before calibration (an abstention's 0.2 too); absent on votes stored before it. */
  readonly rawConfidence?: number;
  readonly calibration?: ConfidenceBasis;
}

export type CouncilMode = "council" | "judiciary";
export type ConsensusDirection = "BULLISH" | "BEARISH" | "NEUTRAL" | "SPLIT";
export type ConsensusLevel = "UNANIMOUS" | "STRONG" | "MODERATE" | "SPLIT";

/** Inputs of the TAO risk flags (DECISIONS 7) that are not signal readings. */
export interface TaoRiskInputs {
  readonly liquidityStatus: "SUFFICIENT" | "INSUFFICIENT" | "UNKNOWN";
  /** Last 1 h (high − low) / low × 100; null when unknown. */
  readonly lastHourRangePct: number | null;
  /** Last 1 h volume / 24 h hourly average; null when unknown. */
  readonly volumeRatio: number | null;
  /** A live AI-sector sentiment source, with its own 20th percentile; null when there is none. */
  readonly aiSentiment: { readonly value: number; readonly percentile20: number } | null;
}

/** The market picture one council deliberates on. Built by the council actor from the snapshot. */
export interface CouncilInput {
  readonly asset: CouncilAsset;
  /** Market time of the session, ms since epoch. */
  readonly at: number;
  readonly regime: Regime | null;
  /** Spot price of the council's asset. */
  readonly price: number | null;
  readonly readings: readonly FeatureReading[];
  readonly calendar: {
    readonly status: CalendarStatusValue;
    /** Hours until the next TIER1 event (0 while one is active); null when none is scheduled. */
    readonly hoursUntilTier1: number | null;
  };
  /** The verdict's `snapshotSignals` (TAO: tao_price, rsi_1h, ema_200; SOL adds its network keys). */
  readonly snapshotSignals: Readonly<Record<string, number | null>>;
  /** TAO only. */
  readonly tao?: TaoRiskInputs;
}

export interface CouncilSession {
  readonly id: string;
  readonly asset: CouncilAsset;
  readonly at: number;
  readonly mode: CouncilMode;
  readonly ruling: TaoRuling;
  /** Calibrated (issue 16; see `calibration`), as are the votes' (each against its agent's own map). */
  readonly confidence: number;
  /** The Chief Judge's own figure before calibration; absent on sessions stored before issue 16. */
  readonly rawConfidence?: number;
  readonly calibration?: ConfidenceBasis;
  readonly score: number;
  readonly consensus: ConsensusDirection;
  readonly consensusLevel: ConsensusLevel;
  readonly votes: readonly AgentVote[];
  /** Agents that deliberated in the session's mode (model in council mode, rule in judiciary mode). */
  readonly agentsSucceeded: number;
  /** Agents that could not: the model failed (their rule voted instead) or no data (abstained). */
  readonly agentsFailed: number;
  readonly vetoedBy: readonly string[];
  readonly riskFlags: readonly TaoRiskFlag[];
  readonly chiefRationale: string;
  readonly plainExplanation: string;
  /** Whether the rationale and explanation came from the model or the template. */
  readonly explanationSource: "model" | "template";
  readonly snapshotSignals: Readonly<Record<string, number | null>>;
}
