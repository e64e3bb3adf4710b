import { AdvisorError, type AgentBrief, type ChiefSummary, type CouncilAdvisor, type ModelVote, type Prompt } from "../domain/council/advisor-port.js";
import type { CallBudget } from "../domain/council/call-budget.js";
import { LlmError, type ChatMessage, type ChatModel } from "./chat-model.js";
import { agentReplySchema, chiefReplySchema } from "./reply-schemas.js";
import { askStructured } from "./structured-chat.js";

function messages(p: Prompt): ChatMessage[] {
  return [
    { role: "system", content: p.system },
    { role: "user", content: p.user },
  ];
}

/** Maps transport failures onto the council's three outcomes (see AdvisorFailure). */
function toAdvisorError(err: unknown): AdvisorError {
  if (err instanceof LlmError) {
    if (err.kind === "budget") return new AdvisorError("budget", err.message);
    if (err.kind === "invalid_reply") return new AdvisorError("invalid_reply", err.message);
    return new AdvisorError("unavailable", `${err.kind}: ${err.message}`);
  }
  return new AdvisorError("unavailable", err instanceof Error ? err.message : String(err));
}

/** The council's language-model advisor over any ChatModel (OpenAI-compatible by default). */
export class LlmCouncilAdvisor implements CouncilAdvisor {
  constructor(private readonly model: ChatModel) {}

  async agentVote(brief: AgentBrief, budget: CallBudget): Promise<ModelVote> {
    try {
      return await askStructured(this.model, messages(brief.prompt), agentReplySchema(brief.allowedRulings), budget);
    } catch (err) {
      throw toAdvisorError(err);
    }
  }

  async chiefSummary(prompt: Prompt, budget: CallBudget): Promise<ChiefSummary> {
    try {
      return await askStructured(this.model, messages(prompt), chiefReplySchema, budget);
    } catch (err) {
      throw toAdvisorError(err);
    }
  }
}
