import type { TaoRuling } from "../market/vocabulary.js";
import type { CallBudget } from "./call-budget.js";
import type { AgentDefinition, CouncilAsset } from "./council-types.js";

export interface Prompt {
  readonly system: string;
  readonly user: string;
}

export interface AgentBrief {
  readonly asset: CouncilAsset;
  readonly agent: AgentDefinition;
  /** The rulings a valid answer may carry; anything else is a malformed reply. */
  readonly allowedRulings: readonly TaoRuling[];
  readonly prompt: Prompt;
}

export interface ModelVote {
  readonly ruling: TaoRuling;
  readonly confidence: number;
  readonly thesis: string;
}

export interface ChiefSummary {
  readonly rationale: string;
  readonly explanation: string;
}

/**
 * Why an advice failed. `unavailable`: the provider did not answer usefully after retries
 * (timeout, network, 429/5xx): the rest of the session stops asking it. `invalid_reply`: an
 * answer that stayed malformed after repair: only that agent falls back. `budget`: the
 * session's call budget is spent.
 */
export type AdvisorFailure = "unavailable" | "invalid_reply" | "budget";

export class AdvisorError extends Error {
  constructor(
    readonly failure: AdvisorFailure,
    message: string,
  ) {
    super(message);
    this.name = "AdvisorError";
  }
}

/** The council's port to a language model. Adapters live in src/llm; the domain knows no HTTP. */
export interface CouncilAdvisor {
  agentVote(brief: AgentBrief, budget: CallBudget): Promise<ModelVote>;
  chiefSummary(prompt: Prompt, budget: CallBudget): Promise<ChiefSummary>;
}
