import type { Logger } from "../logging/logger.js";
import type { LlmAttemptRecord, LlmCallRecord } from "../llm/call-record.js";
import type { LlmSessionSummary, LlmTelemetry } from "../llm/council-sessions.js";
import { processCounter, processHistogram } from "./metrics.js";

/** Created once per process, like the runtime's collectors: every service in it shares them. */
const llmMetrics = {
  calls: processCounter({ name: "mis_llm_calls_total", help: "Questions to the language model (an agent vote or a Chief Judge summary, retries included), by council, model and outcome", labelNames: ["asset", "model", "outcome"] }),
  tokens: processCounter({ name: "mis_llm_tokens_total", help: "Tokens the provider reported, by council, model and direction (prompt or completion)", labelNames: ["asset", "model", "direction"] }),
  callSeconds: processHistogram({ name: "mis_llm_call_duration_seconds", help: "Wall time of one question to the model, retries and repairs included, by model and outcome", labelNames: ["model", "outcome"], buckets: [0.5, 1, 2, 4, 8, 15, 30, 60, 120] }),
  attempts: processCounter({ name: "mis_llm_attempts_total", help: "HTTP attempts to the model provider, each retry counted, by model, outcome and the provider's status (none when no answer came)", labelNames: ["model", "outcome", "status"] }),
  sessions: processCounter({ name: "mis_council_llm_sessions_total", help: "Council sessions run with a model configured, by council and the mode they ended in (council, judiciary, none)", labelNames: ["asset", "mode"] }),
  sessionSeconds: processHistogram({ name: "mis_council_session_duration_seconds", help: "Wall time a council session spent with the model, from holding its slot to its end, by council", labelNames: ["asset"], buckets: [1, 5, 10, 20, 30, 45, 60, 90, 120, 180] }),
  sessionWaitSeconds: processHistogram({ name: "mis_council_session_wait_seconds", help: "Wall time a council session waited for a model slot behind other councils, by council", labelNames: ["asset"], buckets: [0.01, 1, 5, 15, 30, 60, 90, 180] }),
  sessionTokens: processHistogram({ name: "mis_council_session_tokens", help: "Tokens one council session used (prompt plus completion), by council", labelNames: ["asset"], buckets: [500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000] }),
};

/**
 * Logs and metrics of the councils' model use: a line per question (agent, model, tokens in and
 * out, ms, outcome; a warning with the reason when it failed) and a line per session.
 */
export function llmTelemetry(logger: Logger): LlmTelemetry {
  return {
    call(r: LlmCallRecord) {
      llmMetrics.calls.labels(r.asset, r.model, r.outcome).inc();
      llmMetrics.tokens.labels(r.asset, r.model, "prompt").inc(r.promptTokens);
      llmMetrics.tokens.labels(r.asset, r.model, "completion").inc(r.completionTokens);
      llmMetrics.callSeconds.labels(r.model, r.outcome).observe(r.ms / 1000);
      const line = { asset: r.asset, agent: r.agent, model: r.model, tokens_in: r.promptTokens, tokens_out: r.completionTokens, ms: r.ms, outcome: r.outcome };
      if (r.reason === null) logger.info(line, "llm call");
      else logger.warn({ ...line, reason: r.reason }, "llm call failed");
    },
    attempt(a: LlmAttemptRecord) {
      llmMetrics.attempts.labels(a.model, a.outcome, a.status === null ? "none" : String(a.status)).inc();
      // The question's own line says how it ended; a failed attempt that is retried is seen here only.
      if (a.reason !== null) logger.info({ model: a.model, outcome: a.outcome, status: a.status, ms: a.ms, retrying: a.retrying, reason: a.reason }, "llm attempt failed");
    },
    session(s: LlmSessionSummary) {
      llmMetrics.sessions.labels(s.asset, s.mode ?? "none").inc();
      llmMetrics.sessionSeconds.labels(s.asset).observe(s.ms / 1000);
      llmMetrics.sessionWaitSeconds.labels(s.asset).observe(s.waitedMs / 1000);
      llmMetrics.sessionTokens.labels(s.asset).observe(s.promptTokens + s.completionTokens);
      const line = {
        asset: s.asset,
        model: s.model,
        mode: s.mode,
        agents_succeeded: s.agentsSucceeded,
        agents_failed: s.agentsFailed,
        calls: s.calls,
        failed_calls: s.failedCalls,
        tokens_in: s.promptTokens,
        tokens_out: s.completionTokens,
        ms: s.ms,
        waited_ms: s.waitedMs,
      };
      // A configured model that answered nothing is the operator's business: say why.
      if (s.mode === "judiciary") logger.warn({ ...line, reason: s.reason }, "council session fell back to judiciary mode");
      else logger.info({ ...line, reason: s.reason }, "council session");
    },
  };
}
