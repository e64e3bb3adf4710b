import type { CouncilAsset } from "../domain/council/council-types.js";
import type { LlmErrorKind } from "./chat-model.js";

/** The Chief Judge's name in call records, beside the agents' own names. */
export const CHIEF_JUDGE = "CHIEF JUDGE";

/**
 * One question to the model (an agent's vote or the Chief Judge's summary, retries and repairs
 * included) as the operator sees it in logs and /metrics: who asked, what it cost, how it ended.
 */
export interface LlmCallRecord {
  readonly asset: CouncilAsset;
  readonly agent: string;
  readonly model: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly ms: number;
  /** "ok", or the failure kind (timeout, client for a 401, invalid_reply, deadline, …). */
  readonly outcome: "ok" | LlmErrorKind;
  /** Why it failed, for the log; null when it succeeded. Provider text, never prompt data. */
  readonly reason: string | null;
}

/** One HTTP attempt as the operator sees it: a provider's 429s and 5xx show before retries run out. */
export interface LlmAttemptRecord {
  readonly model: string;
  readonly outcome: "ok" | LlmErrorKind;
  /** The provider's HTTP status; null when no answer came (timeout, network). */
  readonly status: number | null;
  readonly ms: number;
  /** Whether another attempt follows this failed one. */
  readonly retrying: boolean;
  /** Why it failed (provider text, key taken out); null when it succeeded. */
  readonly reason: string | null;
}
