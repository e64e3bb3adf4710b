/** Provider-neutral chat port: what the council advisor needs from any chat-completions API. */
export interface ChatMessage {
  readonly role: "system" | "user" | "assistant";
  readonly content: string;
}

export interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  /** Ask the provider for a JSON object reply where it supports that. */
  readonly json?: boolean;
  readonly maxTokens?: number;
}

/** Each HTTP attempt takes one unit; retries are real calls and cost like them. */
export interface AttemptBudget {
  tryTake(): boolean;
}

export interface ChatModel {
  /** The assistant's text reply. Throws LlmError on every failure. */
  complete(request: ChatRequest, budget?: AttemptBudget): Promise<string>;
}

export type LlmErrorKind =
  | "timeout"
  | "network"
  | "rate_limited"
  | "server"
  | "client"
  | "malformed_envelope"
  | "invalid_reply"
  | "budget";

export class LlmError extends Error {
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = "LlmError";
  }
}
