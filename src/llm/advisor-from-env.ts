import type { CouncilAdvisorSource } from "../domain/council/advisor-port.js";
import { DEFAULT_MAX_CONCURRENT_SESSIONS, DEFAULT_SESSION_BUDGET_MS, LlmCouncilSessions, type LlmTelemetry } from "./council-sessions.js";
import type { LlmAttemptRecord } from "./call-record.js";
import type { HourlyAllowance } from "./chat-model.js";
import { OpenAiChatModel, type MaxTokensParam, type ResponseFormatMode } from "./openai-chat.js";

export interface LlmEnv {
  readonly LLM_BASE_URL?: string | undefined;
  readonly LLM_API_KEY?: string | undefined;
  readonly LLM_MODEL?: string | undefined;
  readonly LLM_RESPONSE_FORMAT?: ResponseFormatMode | undefined;
  readonly LLM_TEMPERATURE?: number | "provider_default" | undefined;
  readonly LLM_MAX_TOKENS_PARAM?: MaxTokensParam | undefined;
  readonly LLM_REASONING_TOKENS?: number | undefined;
  readonly LLM_TIMEOUT_MS?: number | undefined;
  readonly LLM_SESSION_BUDGET_MS?: number | undefined;
  readonly LLM_MAX_CONCURRENT_SESSIONS?: number | undefined;
}

export interface AdvisorWiring {
  readonly telemetry?: LlmTelemetry;
  /** Shared by every replica through the store (application/model-call-cap.ts). */
  readonly hourlyAllowance?: HourlyAllowance;
}

/**
 * The councils' advisor source from configuration (DECISIONS 1 and 6): LLM_BASE_URL and
 * LLM_MODEL name an OpenAI-compatible provider; LLM_API_KEY is optional (local servers may need
 * none). Without a base URL and a model there is no provider and the councils run in judiciary
 * mode: null.
 */
export function councilAdvisorFromEnv(env: LlmEnv, wiring: AdvisorWiring = {}): CouncilAdvisorSource | null {
  const { telemetry, hourlyAllowance } = wiring;
  if (!env.LLM_BASE_URL || !env.LLM_MODEL) return null;
  const model = new OpenAiChatModel({
    baseUrl: env.LLM_BASE_URL,
    model: env.LLM_MODEL,
    ...(env.LLM_API_KEY ? { apiKey: env.LLM_API_KEY } : {}),
    ...(env.LLM_TIMEOUT_MS ? { timeoutMs: env.LLM_TIMEOUT_MS } : {}),
    ...(env.LLM_RESPONSE_FORMAT ? { responseFormat: env.LLM_RESPONSE_FORMAT } : {}),
    ...(env.LLM_TEMPERATURE === undefined ? {} : { temperature: env.LLM_TEMPERATURE }),
    ...(env.LLM_MAX_TOKENS_PARAM ? { maxTokensParam: env.LLM_MAX_TOKENS_PARAM } : {}),
    ...(env.LLM_REASONING_TOKENS ? { reasoningTokens: env.LLM_REASONING_TOKENS } : {}),
    ...(telemetry ? { observeAttempt: (a: LlmAttemptRecord) => telemetry.attempt(a) } : {}),
    ...(hourlyAllowance ? { hourlyAllowance } : {}),
  });
  return new LlmCouncilSessions(model, {
    sessionBudgetMs: env.LLM_SESSION_BUDGET_MS ?? DEFAULT_SESSION_BUDGET_MS,
    maxConcurrentSessions: env.LLM_MAX_CONCURRENT_SESSIONS ?? DEFAULT_MAX_CONCURRENT_SESSIONS,
    ...(telemetry ? { telemetry } : {}),
  });
}
