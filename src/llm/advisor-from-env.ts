import type { CouncilAdvisor } from "../domain/council/advisor-port.js";
import { LlmCouncilAdvisor } from "./council-advisor.js";
import { OpenAiChatModel } from "./openai-chat.js";

export interface LlmEnv {
  readonly LLM_BASE_URL?: string;
  readonly LLM_API_KEY?: string;
  readonly LLM_MODEL?: string;
}

/**
 * The councils' advisor from configuration (DECISIONS 1): LLM_BASE_URL and LLM_MODEL name an
 * OpenAI-compatible provider; LLM_API_KEY is optional (local servers need none). Without a base
 * URL and a model there is no provider and the councils run in judiciary mode: null.
 */
export function councilAdvisorFromEnv(env: LlmEnv, timeoutMs?: number): CouncilAdvisor | null {
  if (!env.LLM_BASE_URL || !env.LLM_MODEL) return null;
  return new LlmCouncilAdvisor(
    new OpenAiChatModel({ baseUrl: env.LLM_BASE_URL, model: env.LLM_MODEL, ...(env.LLM_API_KEY ? { apiKey: env.LLM_API_KEY } : {}), ...(timeoutMs ? { timeoutMs } : {}) }),
  );
}
