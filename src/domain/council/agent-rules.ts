import { ALL_RULES } from "../judiciary/asset-rules.js";
import { context } from "../judiciary/btc-rules.js";
import type { ContributionRule } from "../judiciary/contribution-rule.js";
import type { AgentDefinition } from "./council-types.js";
import { NETWORK_RULES } from "./network-rules.js";

const cache = new WeakMap<AgentDefinition, Readonly<Record<string, ContributionRule>>>();

/**
 * The rule table an agent scores with: its own inputs only, each with the Judiciary Engine's
 * documented rule, or the council-only rule of a network or sector figure. An input without a
 * documented direction (network TPS level, say) is context: it counts for the agent's coverage
 * but never moves its score.
 */
export function agentRules(agent: AgentDefinition): Readonly<Record<string, ContributionRule>> {
  const hit = cache.get(agent);
  if (hit) return hit;
  const table: Record<string, ContributionRule> = {};
  for (const key of agent.inputs) table[key] = ALL_RULES[key] ?? NETWORK_RULES[key] ?? context(key, "", "no documented direction; context only");
  cache.set(agent, table);
  return table;
}
