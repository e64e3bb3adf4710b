import type { TaoRuling } from "../market/vocabulary.js";
import type { CallBudget } from "./call-budget.js";
import type { AgentDefinition, CouncilAsset, CouncilSession } from "./council-types.js";

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

/** What the Chief Judge is asked: to explain a ruling already computed in code. */
export interface ChiefBrief {
  readonly ruling: TaoRuling;
  readonly prompt: Prompt;
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
  chiefSummary(brief: ChiefBrief, budget: CallBudget): Promise<ChiefSummary>;
}

/** One session's access to the model, bound to that session's time budget. */
export interface AdvisorSession {
  /** Null: no model may be asked in this session (the advisor source says why in its logs). */
  readonly advisor: CouncilAdvisor | null;
  /** Ends the session's access, with the session deliberated (null: paused or failed). Call once. */
  close(session: CouncilSession | null): void;
}

/**
 * Where councils get their advisor, one session at a time: the adapter bounds how many sessions
 * use the model at once and how long each may take, and records what each cost.
 */
export interface CouncilAdvisorSource {
  open(asset: CouncilAsset): Promise<AdvisorSession>;
}
