import type { AdvisorSession, CouncilAdvisorSource } from "../domain/council/advisor-port.js";
import type { CouncilAsset, CouncilMode, CouncilSession } from "../domain/council/council-types.js";
import type { LlmAttemptRecord, LlmCallRecord } from "./call-record.js";
import type { ChatModel } from "./chat-model.js";
import { LlmCouncilAdvisor } from "./council-advisor.js";
import { SessionSlots } from "./session-slots.js";

/** What one council session cost with the model, for the log line and /metrics. */
export interface LlmSessionSummary {
  readonly asset: CouncilAsset;
  readonly model: string;
  /** The stored session's mode; null when no session was stored (BLACKOUT pause, failed turn). */
  readonly mode: CouncilMode | null;
  readonly agentsSucceeded: number | null;
  readonly agentsFailed: number | null;
  readonly calls: number;
  readonly failedCalls: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** From holding the slot to the session's end (wall clock). */
  readonly ms: number;
  /** Waiting for a slot behind other councils' sessions. */
  readonly waitedMs: number;
  /** Why the model was not (fully) used: the first failure, or no slot; null when all went well. */
  readonly reason: string | null;
}

/** Where the records go: structured logs and Prometheus (observability/llm-telemetry.ts). */
export interface LlmTelemetry {
  call(record: LlmCallRecord): void;
  session(summary: LlmSessionSummary): void;
  /** Every HTTP attempt, retries included. */
  attempt(record: LlmAttemptRecord): void;
}

export const SILENT_TELEMETRY: LlmTelemetry = { call: () => undefined, session: () => undefined, attempt: () => undefined };

export interface LlmCouncilSessionsOptions {
  /** Wall time one session may spend with the model; later agents vote by rule (LLM_SESSION_BUDGET_MS). */
  readonly sessionBudgetMs: number;
  /** Sessions talking to the model at once in this process (LLM_MAX_CONCURRENT_SESSIONS). */
  readonly maxConcurrentSessions: number;
  readonly telemetry?: LlmTelemetry;
  /** Cap on each reply's tokens; see AdvisorOptions. */
  readonly maxReplyTokens?: number;
}

/** Defaults: one BTC session (7 calls of 2-6 s on a small local model) fits well inside. */
export const DEFAULT_SESSION_BUDGET_MS = 90_000;
export const DEFAULT_MAX_CONCURRENT_SESSIONS = 1;

/**
 * The longest a council turn may legitimately hold its actor with a model configured: up to one
 * budget waiting for a slot behind other councils' sessions, then up to one budget with the model
 * (each attempt's timeout is cut to the session's deadline). Whatever watches for stuck turns
 * must allow this much, or a slow model reads as a stalled host.
 */
export function councilTurnBoundMs(sessionBudgetMs: number): number {
  return 2 * sessionBudgetMs;
}

/**
 * The councils' advisor source over one chat model: a session waits for a slot (at most one
 * session budget; then it runs without the model and says so), gets an advisor whose calls stop
 * at the session's deadline, and on close reports its tokens, time and outcome.
 */
export class LlmCouncilSessions implements CouncilAdvisorSource {
  private readonly slots: SessionSlots;
  private readonly telemetry: LlmTelemetry;

  constructor(
    private readonly model: ChatModel,
    private readonly options: LlmCouncilSessionsOptions,
  ) {
    this.slots = new SessionSlots(options.maxConcurrentSessions);
    this.telemetry = options.telemetry ?? SILENT_TELEMETRY;
  }

  async open(asset: CouncilAsset): Promise<AdvisorSession> {
    const asked = Date.now();
    const granted = await this.slots.acquire(asset, this.options.sessionBudgetMs);
    const started = Date.now();
    const waitedMs = started - asked;
    const records: LlmCallRecord[] = [];
    let closed = false;
    const summarize = (session: CouncilSession | null, reason: string | null): LlmSessionSummary => ({
      asset,
      model: this.model.modelName,
      mode: session?.mode ?? null,
      agentsSucceeded: session?.agentsSucceeded ?? null,
      agentsFailed: session?.agentsFailed ?? null,
      calls: records.length,
      failedCalls: records.filter((r) => r.outcome !== "ok").length,
      promptTokens: records.reduce((n, r) => n + r.promptTokens, 0),
      completionTokens: records.reduce((n, r) => n + r.completionTokens, 0),
      ms: Date.now() - started,
      waitedMs,
      reason,
    });
    if (!granted) {
      const reason = `model busy: no session slot free within ${this.options.sessionBudgetMs} ms (${this.options.maxConcurrentSessions} at a time)`;
      return {
        advisor: null,
        close: (session) => {
          if (closed) return;
          closed = true;
          this.telemetry.session(summarize(session, reason));
        },
      };
    }
    const advisor = new LlmCouncilAdvisor(this.model, {
      asset,
      deadlineAt: started + this.options.sessionBudgetMs,
      ...(this.options.maxReplyTokens === undefined ? {} : { maxReplyTokens: this.options.maxReplyTokens }),
      observe: (record) => {
        records.push(record);
        this.telemetry.call(record);
      },
    });
    return {
      advisor,
      close: (session) => {
        if (closed) return;
        closed = true;
        this.slots.release();
        this.telemetry.session(summarize(session, records.find((r) => r.reason !== null)?.reason ?? null));
      },
    };
  }
}
