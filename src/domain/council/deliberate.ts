import { unitMultiplier, type MultiplierLookup } from "../judiciary/feature-reading.js";
import { AdvisorError, type CouncilAdvisor } from "./advisor-port.js";
import { CallBudget, DEFAULT_CALLS_PER_SESSION } from "./call-budget.js";
import { judge } from "./chief-judge.js";
import type { AgentVote, CouncilInput, CouncilMode, CouncilSession } from "./council-types.js";
import { templateSummary } from "./explanation-template.js";
import { agentPrompt, chiefPrompt } from "./prompts.js";
import { JUDICIARY_BASELINE_CONFIDENCE, abstainVote, missingInputs, ruleVote } from "./rule-agent.js";
import { ROSTERS } from "./rosters.js";
import { taoRiskFlags, type TaoRiskFlag } from "./tao-risk-flags.js";

export interface DeliberationDeps {
  /** The language-model port; null means judiciary mode (no provider configured). */
  readonly advisor: CouncilAdvisor | null;
  /** Session id (a UUID in production); injected so tests and replays are deterministic. */
  readonly newId: () => string;
  readonly multiplier?: MultiplierLookup;
  readonly callsPerSession?: number;
}

export type DeliberationOutcome =
  | { readonly kind: "paused"; readonly asset: CouncilInput["asset"]; readonly at: number; readonly reason: string }
  | { readonly kind: "session"; readonly session: CouncilSession };

function riskFlagsOf(input: CouncilInput, votes: readonly AgentVote[]): TaoRiskFlag[] {
  if (input.asset !== "TAO") return [];
  const agentInputs = [...new Set(ROSTERS.TAO.agents.flatMap((a) => a.inputs))];
  return taoRiskFlags({
    at: input.at,
    liquidityStatus: input.tao?.liquidityStatus ?? "UNKNOWN",
    lastHourRangePct: input.tao?.lastHourRangePct ?? null,
    volumeRatio: input.tao?.volumeRatio ?? null,
    hoursUntilTier1: input.calendar.hoursUntilTier1,
    aiSentiment: input.tao?.aiSentiment ?? null,
    agentInputs,
    readings: input.readings,
    agentsWithoutData: votes.filter((v) => v.source === "abstain").map((v) => v.agent),
  });
}

/**
 * One council session. Never throws for provider trouble: every model failure ends in that
 * agent's rule vote (or, with no model answer at all, a judiciary-mode session), so the caller
 * always gets a complete session to store in one write, or a BLACKOUT pause.
 *
 * Agents are asked one after another: a provider that is down is detected on the first agent
 * and not asked five more times, and the call budget is spent in a predictable order.
 */
export async function deliberate(input: CouncilInput, deps: DeliberationDeps): Promise<DeliberationOutcome> {
  if (input.calendar.status === "BLACKOUT") {
    return { kind: "paused", asset: input.asset, at: input.at, reason: "macro calendar BLACKOUT: a TIER1 event today pauses every council" };
  }
  const roster = ROSTERS[input.asset];
  const multiplier = deps.multiplier ?? unitMultiplier;
  const budget = new CallBudget(deps.callsPerSession ?? DEFAULT_CALLS_PER_SESSION);
  let advisor = deps.advisor;
  const solScale = input.asset === "SOL";

  const votes: AgentVote[] = [];
  let modelAnswers = 0;
  for (const agent of roster.agents) {
    const missing = missingInputs(agent, input);
    if (missing.length === agent.inputs.length) {
      // No data: nothing for a model to judge either, so no call is spent on it.
      votes.push(abstainVote(agent, missing));
      continue;
    }
    if (advisor !== null) {
      try {
        const v = await advisor.agentVote({ asset: input.asset, agent, allowedRulings: roster.voteRulings, prompt: agentPrompt(roster, agent, input) }, budget);
        votes.push({ agent: agent.name, ruling: v.ruling, confidence: v.confidence, thesis: v.thesis, source: "model", missing });
        modelAnswers++;
        continue;
      } catch (err) {
        // A down provider or a spent budget will not improve within this session.
        if (!(err instanceof AdvisorError) || err.failure !== "invalid_reply") advisor = null;
      }
    }
    votes.push(ruleVote(agent, input, solScale, multiplier));
  }

  const mode: CouncilMode = modelAnswers > 0 ? "council" : "judiciary";
  const riskFlags = riskFlagsOf(input, votes);
  const judgement = judge(roster, votes, riskFlags, mode === "judiciary" ? JUDICIARY_BASELINE_CONFIDENCE : null);

  let summary = templateSummary(input.asset, mode, votes, judgement, riskFlags);
  let explanationSource: "model" | "template" = "template";
  if (mode === "council" && advisor !== null) {
    try {
      summary = await advisor.chiefSummary({ ruling: judgement.ruling, prompt: chiefPrompt(roster, votes, judgement, riskFlags) }, budget);
      explanationSource = "model";
    } catch {
      // The template already explains the session; the ruling never depended on this call.
    }
  }

  const agentsSucceeded = mode === "council" ? modelAnswers : votes.filter((v) => v.source === "rule").length;
  const session: CouncilSession = {
    id: deps.newId(),
    asset: input.asset,
    at: input.at,
    mode,
    ruling: judgement.ruling,
    confidence: judgement.confidence,
    score: judgement.score,
    consensus: judgement.consensus.direction,
    consensusLevel: judgement.consensus.level,
    votes,
    agentsSucceeded,
    // Every agent either succeeded in the session's mode or did not: the two always sum to six.
    agentsFailed: roster.agents.length - agentsSucceeded,
    vetoedBy: judgement.vetoedBy,
    riskFlags,
    chiefRationale: summary.rationale,
    plainExplanation: summary.explanation,
    explanationSource,
    snapshotSignals: input.snapshotSignals,
  };
  return { kind: "session", session };
}
