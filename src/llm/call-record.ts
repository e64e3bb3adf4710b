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
