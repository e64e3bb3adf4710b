import { agentRules } from "./agent-rules.js";
import type { Prompt } from "./advisor-port.js";
import type { AgentDefinition, AgentVote, CouncilInput, CouncilRoster } from "./council-types.js";
import type { Judgement } from "./chief-judge.js";
import type { TaoRiskFlag } from "./tao-risk-flags.js";

function fmt(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(Math.abs(v) >= 100 ? 2 : 4);
}

/**
 * The agent's prompt: its role, its domain, and only its own inputs with their values, status
 * and the documented reading of each; missing inputs are named so the model does not guess them.
 */
export function agentPrompt(roster: CouncilRoster, agent: AgentDefinition, input: CouncilInput): Prompt {
  const rules = agentRules(agent);
  const byKey = new Map(input.readings.map((r) => [r.key, r]));
  const lines: string[] = [];
  const missing: string[] = [];
  for (const key of agent.inputs) {
    const r = byKey.get(key);
    if (r === undefined || r.value === null || r.status === "DEAD") {
      missing.push(key);
      continue;
    }
    const rule = rules[key];
    const reading = rule ? rule.describe(r.value, rule.contribution(r.value, input.price)) : `${key} ${fmt(r.value)}`;
    lines.push(`- ${key} = ${fmt(r.value)} (${r.status}); rule of thumb: ${reading}`);
  }
  const system =
    `You are ${agent.name}, one of ${roster.agents.length} agents of the ${roster.asset} council of a crypto market-intelligence service. ` +
    `Your domain: ${agent.domain}. Judge only from the data you are given; never invent data. ` +
    `Answer with one JSON object and nothing else: {"ruling": one of ${JSON.stringify(roster.voteRulings)}, ` +
    `"confidence": a number from 0 to 1, "thesis": one to three sentences citing your data}.`;
  const user = [
    `Asset: ${roster.asset}. Time (UTC): ${new Date(input.at).toISOString()}.`,
    `Market regime: ${input.regime ?? "unknown"}. Price: ${input.price === null ? "unknown" : fmt(input.price)}.`,
    `Your data:`,
    ...(lines.length > 0 ? lines : ["- none"]),
    ...(missing.length > 0 ? [`Unavailable (do not assume values): ${missing.join(", ")}.`] : []),
    `Give your ruling as JSON.`,
  ].join("\n");
  return { system, user };
}

/**
 * The Chief Judge's prompt: the ruling is already decided in code; the model only writes the
 * rationale and the 2-3 sentence plain explanation of it.
 */
export function chiefPrompt(roster: CouncilRoster, votes: readonly AgentVote[], j: Judgement, flags: readonly TaoRiskFlag[]): Prompt {
  const system =
    `You are the Chief Judge of the ${roster.asset} council. The council's ruling has already been computed from the weighted votes; ` +
    `do not change it. Answer with one JSON object and nothing else: {"rationale": a short paragraph for analysts, ` +
    `"explanation": two or three plain-English sentences for a retail trader that state the ruling, ${j.ruling}}. ` +
    `State no confidence, probability or chance figure: the service publishes its own, calibrated on past outcomes.`;
  const user = [
    // No confidence figure: the model restated it, and its uncalibrated 0.90 then stood in the
    // published explanation beside the calibrated confidence (0.52).
    `Ruling: ${j.ruling}. Score: ${j.score.toFixed(1)} of ±100. Consensus: ${j.consensus.level} (${j.consensus.direction}).`,
    ...(j.vetoedBy.length > 0 ? [`Veto by: ${j.vetoedBy.join(", ")}.`] : []),
    ...(flags.length > 0 ? [`Risk flags: ${flags.join(", ")}.`] : []),
    `Votes:`,
    ...votes.map((v) => `- ${v.agent}: ${v.ruling} (${v.confidence.toFixed(2)}, ${v.source}): ${v.thesis}`),
  ].join("\n");
  return { system, user };
}
