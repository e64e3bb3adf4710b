import type { ChiefSummary } from "./advisor-port.js";
import type { Judgement } from "./chief-judge.js";
import type { AgentVote, CouncilAsset, CouncilMode } from "./council-types.js";
import type { TaoRiskFlag } from "./tao-risk-flags.js";

/**
 * The template explanation's first sentence. The confidence it states is the session's published
 * one: calibration replaces the Chief Judge's figure after deliberation and rewrites this sentence
 * with it (calibratedSession), so the explanation never contradicts the confidence beside it.
 */
export function templateHeadline(asset: CouncilAsset, ruling: string, confidence: number): string {
  return `The ${asset} council rules ${ruling} with ${Math.round(confidence * 100)}% confidence.`;
}

/**
 * Rationale and plain explanation written from the judgement itself, used in judiciary mode and
 * whenever the model's summary is unavailable, so a session always explains itself.
 */
export function templateSummary(
  asset: CouncilAsset,
  mode: CouncilMode,
  votes: readonly AgentVote[],
  j: Judgement,
  flags: readonly TaoRiskFlag[],
): ChiefSummary {
  const voting = votes.filter((v) => v.source !== "abstain");
  // Picked and stated by the agents' own figures, which the Chief Judge weighs. Calibration then
  // publishes each vote's probability beside it (the agent's figure kept as raw_confidence), and
  // those are about the base rate for every agent: "most convinced" without "by its own figure"
  // read as a contradiction next to an agent published at 0.4966, the lowest of the session.
  const strongest = [...voting].sort((a, b) => b.confidence - a.confidence || a.agent.localeCompare(b.agent))[0];
  const rationale =
    `Weighted vote of ${voting.length} of ${votes.length} agents gives score ${j.score.toFixed(1)} and ruling ${j.ruling}; ` +
    `consensus ${j.consensus.level} with ${Math.round(j.consensus.share * 100)}% of the weight ${j.consensus.leading}.` +
    (j.vetoedBy.length > 0 ? ` Vetoed to AVOID by ${j.vetoedBy.join(", ")}.` : "") +
    (flags.length > 0 ? ` Risk flags: ${flags.join(", ")}.` : "") +
    (mode === "judiciary" ? " Judiciary mode: agents voted by their documented rules at reduced confidence." : "");
  const lean = j.consensus.direction === "SPLIT" ? "are split" : `lean ${j.consensus.direction.toLowerCase()}`;
  const explanation =
    `${templateHeadline(asset, j.ruling, j.confidence)} ` +
    `Its agents ${lean}` +
    (strongest ? `, with ${strongest.agent} the most convinced by its own figure (${strongest.ruling} at ${Math.round(strongest.confidence * 100)}%).` : ".") +
    (mode === "judiciary" ? " The language-model council is unavailable, so this is the rule-based fallback." : "");
  return { rationale, explanation };
}
