import { unitMultiplier, type MultiplierLookup } from "../judiciary/feature-reading.js";
import { rulingForScore, solRulingForScore } from "../judiciary/score-bands.js";
import { scoreReadings } from "../judiciary/score-readings.js";
import { agentRules } from "./agent-rules.js";
import type { AgentDefinition, AgentVote, CouncilInput } from "./council-types.js";

/** SPEC: judiciary mode runs at a reduced baseline confidence of about 47%. */
export const JUDICIARY_BASELINE_CONFIDENCE = 0.47;

/** DECISIONS 7: an agent whose inputs are all DEAD votes HOLD with confidence ≤ 0.3. */
export const ABSTAIN_CONFIDENCE = 0.2;

/** Inputs of the agent that have no live or stale reading. */
export function missingInputs(agent: AgentDefinition, input: CouncilInput): string[] {
  const usable = new Set(input.readings.filter((r) => r.value !== null && r.status !== "DEAD").map((r) => r.key));
  return agent.inputs.filter((k) => !usable.has(k));
}

/** The vote of an agent with no data at all: HOLD, low confidence, saying what is missing. */
export function abstainVote(agent: AgentDefinition, missing: readonly string[]): AgentVote {
  return {
    agent: agent.name,
    ruling: "HOLD",
    confidence: ABSTAIN_CONFIDENCE,
    thesis: `${agent.name} abstains: no live data for ${missing.join(", ")}; HOLD until its inputs return.`,
    source: "abstain",
    missing,
  };
}

/**
 * Judiciary-mode vote: the agent's inputs scored by the engine's rules, ruling by the score
 * bands, confidence capped at the 0.47 baseline and lowered by disagreement and missing inputs.
 * Because the cap is below 0.7, a rule vote can never trigger the SOL/TAO veto; vetoes need a
 * model's conviction, as SPEC describes the veto as the agent's own call.
 */
export function ruleVote(agent: AgentDefinition, input: CouncilInput, solScale: boolean, multiplier: MultiplierLookup = unitMultiplier): AgentVote {
  const scored = scoreReadings(input.readings, agentRules(agent), input.regime, input.price, multiplier);
  const missing = scored.evidence.filter((e) => e.status === "DEAD").map((e) => e.key);
  const ruling = solScale ? solRulingForScore(scored.score) : rulingForScore(scored.score);
  const confidence =
    Math.round(JUDICIARY_BASELINE_CONFIDENCE * Math.sqrt(scored.coverageRatio) * (0.6 + 0.4 * scored.agreement) * 100) / 100;
  const reasons = scored.evidence
    .filter((e) => e.status !== "DEAD")
    .sort((a, b) => Math.abs(b.points) - Math.abs(a.points))
    .slice(0, 3)
    .map((e) => e.reason);
  const thesis =
    `${agent.name} (rules): score ${scored.score > 0 ? "+" : ""}${scored.score.toFixed(1)} from ` +
    `${scored.coverage.live + scored.coverage.stale} of ${scored.coverage.total} inputs gives ${ruling}. ` +
    reasons.join("; ") +
    "." +
    (missing.length > 0 ? ` Missing: ${missing.join(", ")}.` : "");
  return { agent: agent.name, ruling, confidence, thesis, source: "rule", missing, score: Math.round(scored.score * 10) / 10 };
}
