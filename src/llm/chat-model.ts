/** Provider-neutral chat port: what the council advisor needs from any chat-completions API. */
export interface ChatMessage {
  readonly role: "system" | "user" | "assistant";
  readonly content: string;
}

/**
 * The JSON reply a request asks for: a name and the JSON Schema generated from the reply's zod
 * schema (reply-format.ts). Providers that enforce schemas get it; others get "a JSON object".
 */
export interface JsonReplyFormat {
  readonly name: string;
  readonly schema: Readonly<Record<string, unknown>>;
}

export interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  /** Ask the provider for a JSON reply of this shape, as far as it supports that. */
  readonly reply?: JsonReplyFormat;
  readonly maxTokens?: number;
  /**
   * Wall-clock time (epoch ms) after which no attempt may run: the session's time budget. Each
   * attempt's timeout is cut to it, and no retry waits past it.
   */
  readonly deadlineAt?: number;
}

/** Tokens the provider reports for one completion (OpenAI's `usage`); null when it reports none. */
export interface TokenUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

export interface ChatReply {
  readonly text: string;
  readonly usage: TokenUsage | null;
}

/** Each HTTP attempt takes one unit; retries are real calls and cost like them. */
export interface AttemptBudget {
  tryTake(): boolean;
}

/** The hourly allowance of attempts shared by every replica (LLM_MAX_CALLS_PER_HOUR): true while it has room. */
export type HourlyAllowance = () => Promise<boolean>;

export interface ChatModel {
  /** The provider's model name, for logs and metrics. */
  readonly modelName: string;
  /** The assistant's reply. Throws LlmError on every failure. */
  complete(request: ChatRequest, budget?: AttemptBudget): Promise<ChatReply>;
}

export type LlmErrorKind =
  | "timeout"
  | "network"
  | "rate_limited"
  | "server"
  | "client"
  | "malformed_envelope"
  | "truncated"
  | "refused"
  | "invalid_reply"
  | "budget"
  | "capped"
  | "deadline";

export class LlmError extends Error {
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly status: number | null = null,
    /** Tokens the failed reply still cost, when the provider said (a reply cut at its cap). */
    readonly usage: TokenUsage | null = null,
  ) {
    super(message);
    this.name = "LlmError";
  }
}
