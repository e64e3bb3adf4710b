import { AdvisorError, type AgentBrief, type ChiefBrief, type ChiefSummary, type CouncilAdvisor, type ModelVote, type Prompt } from "../domain/council/advisor-port.js";
import type { CallBudget } from "../domain/council/call-budget.js";
import type { CouncilAsset } from "../domain/council/council-types.js";
import { CHIEF_JUDGE, type LlmCallRecord } from "./call-record.js";
import { LlmError, type ChatMessage, type ChatModel } from "./chat-model.js";
import { agentReplySchema, chiefReplySchema } from "./reply-schemas.js";
import { askStructured, UsageTally } from "./structured-chat.js";

/**
 * Token caps per reply: a vote within its schema's caps is at most ~160 tokens, the Chief Judge's
 * ~350. A reply cut at the cap is invalid JSON and gets its repair round.
 */
export const AGENT_REPLY_TOKENS = 200;
export const CHIEF_REPLY_TOKENS = 450;

function messages(p: Prompt): ChatMessage[] {
  return [
    { role: "system", content: p.system },
    { role: "user", content: p.user },
  ];
}

/** Maps transport failures onto the council's three outcomes (see AdvisorFailure). */
function toAdvisorError(err: unknown): AdvisorError {
  if (err instanceof LlmError) {
    if (err.kind === "budget" || err.kind === "deadline" || err.kind === "capped") return new AdvisorError("budget", err.message);
    // A refusal, like a reply that stayed malformed, is this question's answer: only this agent falls back.
    if (err.kind === "invalid_reply" || err.kind === "refused") return new AdvisorError("invalid_reply", err.message);
    return new AdvisorError("unavailable", `${err.kind}: ${err.message}`);
  }
  return new AdvisorError("unavailable", err instanceof Error ? err.message : String(err));
}

export interface AdvisorOptions {
  /** The council this advisor serves (one advisor per session); names the Chief Judge's calls. */
  readonly asset?: CouncilAsset;
  /** Wall-clock end of the session's time budget (epoch ms); no call runs past it. */
  readonly deadlineAt?: number;
  /** Cap on each reply's tokens; default per question (AGENT_REPLY_TOKENS, CHIEF_REPLY_TOKENS). */
  readonly maxReplyTokens?: number;
  /** Told about every question, answered or not (logs and metrics). */
  readonly observe?: (record: LlmCallRecord) => void;
}

/** The council's language-model advisor over any ChatModel (OpenAI-compatible by default). */
export class LlmCouncilAdvisor implements CouncilAdvisor {
  constructor(
    private readonly model: ChatModel,
    private readonly options: AdvisorOptions = {},
  ) {}

  agentVote(brief: AgentBrief, budget: CallBudget): Promise<ModelVote> {
    return this.ask(brief.asset, brief.agent.name, (tally) =>
      askStructured(this.model, messages(brief.prompt), "agent_vote", agentReplySchema(brief.allowedRulings), this.askOptions(budget, tally, AGENT_REPLY_TOKENS)),
    );
  }

  chiefSummary(brief: ChiefBrief, budget: CallBudget): Promise<ChiefSummary> {
    return this.ask(this.options.asset ?? null, CHIEF_JUDGE, (tally) =>
      askStructured(this.model, messages(brief.prompt), "chief_summary", chiefReplySchema(brief.ruling), this.askOptions(budget, tally, CHIEF_REPLY_TOKENS)),
    );
  }

  private askOptions(budget: CallBudget, tally: UsageTally, maxTokens: number) {
    return {
      budget,
      tally,
      ...(this.options.deadlineAt === undefined ? {} : { deadlineAt: this.options.deadlineAt }),
      maxTokens: this.options.maxReplyTokens ?? maxTokens,
    };
  }

  private async ask<T>(asset: CouncilAsset | null, agent: string, run: (tally: UsageTally) => Promise<T>): Promise<T> {
    const tally = new UsageTally();
    const started = performance.now();
    const record = (outcome: LlmCallRecord["outcome"], reason: string | null) => {
      if (asset === null || this.options.observe === undefined) return;
      this.options.observe({
        asset,
        agent,
        model: this.model.modelName,
        promptTokens: tally.promptTokens,
        completionTokens: tally.completionTokens,
        ms: Math.round(performance.now() - started),
        outcome,
        reason,
      });
    };
    try {
      const result = await run(tally);
      record("ok", null);
      return result;
    } catch (err) {
      record(err instanceof LlmError ? err.kind : "network", err instanceof Error ? err.message : String(err));
      throw toAdvisorError(err);
    }
  }
}
