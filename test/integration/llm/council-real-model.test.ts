import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliberate } from "../../../src/domain/council/deliberate.js";
import { judge, VETO_CONFIDENCE } from "../../../src/domain/council/chief-judge.js";
import type { CouncilAsset, CouncilInput, CouncilSession } from "../../../src/domain/council/council-types.js";
import { ROSTERS } from "../../../src/domain/council/rosters.js";
import { DEFAULT_CALLS_PER_SESSION } from "../../../src/domain/council/call-budget.js";
import { missingInputs } from "../../../src/domain/council/rule-agent.js";
import { calendarStatus } from "../../../src/domain/signals/macro-calendar.js";
import { ASSETS } from "../../../src/domain/signals/signal-keys.js";
import type { ReplayMarketFeed } from "../../../src/feeds/replay/replay-feed.js";
import { CHIEF_JUDGE, type LlmCallRecord } from "../../../src/llm/call-record.js";
import { LlmCouncilSessions, type LlmSessionSummary } from "../../../src/llm/council-sessions.js";
import { OpenAiChatModel, type OpenAiChatOptions } from "../../../src/llm/openai-chat.js";
import { agentReplySchema, chiefReplySchema } from "../../../src/llm/reply-schemas.js";
import { llmTelemetry } from "../../../src/observability/llm-telemetry.js";
import { councilInputAt } from "../../../src/application/judiciary-inputs.js";
import { captureLogger } from "../../support/capture-logger.js";
import { LLAMA_MODEL, startLlamaServer, type LlamaServer } from "../../support/llama-server.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";

/**
 * Council sessions against a real language model: llama.cpp's llama-server with SmolLM2-135M
 * (DECISIONS 6), no canned replies. A 135M model has no market insight, so these tests assert the
 * protocol, the modes and the service's own rules, never the model's opinion.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** A busy 2-core host can take ~30 s per reply (DECISIONS 6): three sessions get many minutes. */
const SESSION_TEST_MS = 900_000;
/**
 * Sessions a test may need before the model answers acceptably. SmolLM2-135M often writes a
 * schema-valid reply the service refuses (a thesis of "][", "LIVE" or a loop), and a session with
 * no acceptable reply is rightly a judiciary one. Watched through the production advisor
 * (2026-12-04 and 12-05, docs/decisions.md): BTC 2 of 17, SOL 5 of 17, TAO 9 of 17 sessions
 * judiciary; TAO asks four agents, BTC six, so TAO's sessions go without an answer most often.
 * Under CI's load more go without (BTC 2 of 3 and SOL 4 of 5 in one run). At 0.6, sixteen in a
 * row come about once in 3,500 tries; expected sessions per council are about two.
 */
const MAX_SESSIONS = 16;
/** Room for MAX_SESSIONS sessions per council (the first test runs three councils, ~40 s a session). */
const RETRYING_TEST_MS = 2_400_000;

let feed: ReplayMarketFeed;
let llama: LlamaServer;

/** UTC noons inside every asset's data on days without a TIER1 release (no BLACKOUT), newest first. */
function ordinaryNoons(): number[] {
  const span = feed.span().lastBarClose;
  const end = Math.min(...ASSETS.map((a) => span[a] ?? 0));
  const noons: number[] = [];
  for (let day = Math.floor(end / DAY) * DAY - 2 * DAY; day > end - 120 * DAY && noons.length < MAX_SESSIONS; day -= DAY) {
    if (calendarStatus(feed.calendarEvents(), day + 12 * HOUR).status !== "BLACKOUT") noons.push(day + 12 * HOUR);
  }
  if (noons.length < MAX_SESSIONS) throw new Error("too few ordinary days in the bundled data");
  return noons;
}

/**
 * Ordinary noons, one per session, until `done` says the last session was the one needed or
 * MAX_SESSIONS have run (the caller then asserts what it waited for, and fails with the modes).
 */
function* noonsUntil(done: () => boolean): Generator<number> {
  for (const noon of ordinaryNoons()) {
    yield noon;
    if (done()) return;
  }
}

interface Recorded {
  readonly calls: LlmCallRecord[];
  readonly sessions: LlmSessionSummary[];
  readonly log: ReturnType<typeof captureLogger>;
}

/** The production advisor source over the real server, its records kept and logged for the test. */
function sessionsFor(model: Partial<OpenAiChatOptions> = {}, options: { sessionBudgetMs?: number; maxReplyTokens?: number; onCall?: (r: LlmCallRecord) => void } = {}) {
  const recorded: Recorded = { calls: [], sessions: [], log: captureLogger() };
  const logged = llmTelemetry(recorded.log.logger);
  const source = new LlmCouncilSessions(new OpenAiChatModel({ baseUrl: llama.baseUrl, apiKey: llama.apiKey, model: LLAMA_MODEL, timeoutMs: 60_000, ...model }), {
    sessionBudgetMs: options.sessionBudgetMs ?? 240_000,
    maxConcurrentSessions: 1,
    ...(options.maxReplyTokens === undefined ? {} : { maxReplyTokens: options.maxReplyTokens }),
    telemetry: {
      call: (r) => {
        recorded.calls.push(r);
        logged.call(r);
        options.onCall?.(r);
      },
      session: (s) => {
        recorded.sessions.push(s);
        logged.session(s);
      },
      attempt: (a) => logged.attempt(a),
    },
  });
  return { source, recorded };
}

/** One session the way the council actor runs it: a lease from the source around deliberate. */
async function runSession(source: LlmCouncilSessions, input: CouncilInput): Promise<CouncilSession> {
  const lease = await source.open(input.asset);
  let session: CouncilSession | null = null;
  try {
    const outcome = await deliberate(input, { advisor: lease.advisor, newId: () => `real-${input.asset}-${input.at}` });
    if (outcome.kind !== "session") throw new Error(`expected a session, got ${outcome.kind}`);
    session = outcome.session;
    return session;
  } finally {
    lease.close(session);
  }
}

/** Agents that had at least one live input: the ones the model is asked about. */
function askable(input: CouncilInput): string[] {
  return ROSTERS[input.asset].agents.filter((a) => missingInputs(a, input).length < a.inputs.length).map((a) => a.name);
}

function expectServiceRulesHold(s: CouncilSession): void {
  const roster = ROSTERS[s.asset];
  // The ruling, veto and flags are the service's arithmetic on the stored votes, not the model's say.
  const recomputed = judge(roster, s.votes, s.riskFlags, s.mode === "judiciary" ? 0.47 : null);
  expect(s.ruling).toBe(recomputed.ruling);
  expect(s.vetoedBy).toEqual(recomputed.vetoedBy);
  const vetoes = s.votes.filter((v) => roster.agents.find((a) => a.name === v.agent)?.veto && v.ruling === "AVOID" && v.confidence > VETO_CONFIDENCE);
  expect(s.vetoedBy).toEqual(vetoes.map((v) => v.agent));
  if (vetoes.length > 0 || s.riskFlags.includes("LIQUIDITY_RISK")) expect(s.ruling).toBe("AVOID");
}

beforeAll(async () => {
  feed = await sharedReplayFeed();
  llama = await startLlamaServer();
}, 180_000);

afterAll(async () => {
  await llama?.stop();
});

describe("council sessions against llama-server with SmolLM2 (real model)", () => {
  it(
    "BTC, TAO and SOL: every session keeps the protocol and honest counts; each council reaches council mode with schema-valid model votes; tokens and time recorded",
    async () => {
      const { source, recorded } = sessionsFor();
      for (const asset of ["BTC", "TAO", "SOL"] as const satisfies readonly CouncilAsset[]) {
        const roster = ROSTERS[asset];
        const modes: string[] = [];
        // A session with no acceptable model reply is a judiciary one, which is correct, not a
        // failure; the next ordinary day is asked until the model answers (see sessionsUntil).
        for (const noon of noonsUntil(() => modes.at(-1) === "council")) {
          const input = councilInputAt(feed, asset, noon, null);
          const asked = askable(input);
          const before = recorded.calls.length;
          const s = await runSession(source, input);
          modes.push(s.mode);
          const calls = recorded.calls.slice(before);
          const modelVotes = s.votes.filter((v) => v.source === "model");

          // The mode is the model's answers, never a default: council with one or more.
          expect(s.mode).toBe(modelVotes.length > 0 ? "council" : "judiciary");
          expect(s.votes.map((v) => v.agent)).toEqual(roster.agents.map((a) => a.name));
          // Each askable agent was asked once (its retries and repairs inside that one record),
          // then the Chief Judge, asked only in council mode: for BTC, six agent questions and one
          // summary. A healthy server never fails a transport; only validation may fail, and only
          // for that agent, or, once repairs have spent the session's request budget, the
          // questions after it. A question takes at most two requests (one repair), so no
          // question before the budget's half may see it spent. (CI at f392f0e: the 135M model
          // needed enough repairs that the Chief Judge's question found the 12 requests spent.)
          expect(calls.map((c) => c.agent)).toEqual(s.mode === "council" ? [...asked, CHIEF_JUDGE] : asked);
          calls.forEach((c, i) => {
            if (c.outcome === "budget") expect(2 * i, `${c.agent} found the budget spent`).toBeGreaterThanOrEqual(DEFAULT_CALLS_PER_SESSION);
            else expect(["ok", "invalid_reply"]).toContain(c.outcome);
          });
          if (asset === "BTC") expect(calls).toHaveLength(s.mode === "council" ? 7 : 6);
          // What a trader reads in agents[].thesis passed the service's rules: words, no loop.
          for (const v of modelVotes) agentReplySchema(roster.voteRulings).parse({ ruling: v.ruling, confidence: v.confidence, thesis: v.thesis });
          // Honest counts: a model vote exactly for each call that ended ok; in council mode
          // everyone else failed, in judiciary mode the rule votes are the successes.
          expect(modelVotes.map((v) => v.agent)).toEqual(calls.filter((c) => c.agent !== CHIEF_JUDGE && c.outcome === "ok").map((c) => c.agent));
          const ruleVotes = s.votes.filter((v) => v.source === "rule").length;
          expect(s.agentsSucceeded).toBe(s.mode === "council" ? modelVotes.length : ruleVotes);
          expect(s.agentsSucceeded + s.agentsFailed).toBe(6);
          const chief = calls.find((c) => c.agent === CHIEF_JUDGE);
          expect(s.explanationSource).toBe(chief?.outcome === "ok" ? "model" : "template");
          if (s.explanationSource === "model") chiefReplySchema(s.ruling).parse({ rationale: s.chiefRationale, explanation: s.plainExplanation });
          expectServiceRulesHold(s);
          for (const c of calls) {
            expect(c).toMatchObject({ asset, model: LLAMA_MODEL });
            if (c.outcome === "ok") {
              expect(c.promptTokens).toBeGreaterThan(50);
              expect(c.completionTokens).toBeGreaterThan(5);
            }
          }
          const summary = recorded.sessions.at(-1);
          expect(summary).toMatchObject({ asset, mode: s.mode, agentsSucceeded: s.agentsSucceeded, calls: calls.length });
          expect(summary?.promptTokens).toBe(calls.reduce((n, c) => n + c.promptTokens, 0));
          expect(summary?.ms).toBeGreaterThan(0);
        }
        expect(modes.at(-1), `${asset} sessions: ${modes.join(", ")}`).toBe("council");
        console.info(`real model, ${asset}: sessions until council mode: ${modes.join(", ")}`);
      }
      // The operator's view: one line per question with agent, model, tokens in/out, ms, outcome
      // ("llm call failed", with its reason, for a reply that failed validation).
      const lines = recorded.log.lines.filter((l) => l.msg === "llm call" || l.msg === "llm call failed");
      expect(lines.length).toBeGreaterThan(10);
      for (const l of lines) expect(Object.keys(l)).toEqual(expect.arrayContaining(["asset", "agent", "model", "tokens_in", "tokens_out", "ms", "outcome"]));
    },
    RETRYING_TEST_MS,
  );

  it(
    "TAO with liquidity INSUFFICIENT: LIQUIDITY_RISK is raised and the ruling is AVOID whatever the model votes",
    async () => {
      const { source } = sessionsFor();
      const modes: string[] = [];
      // Until a session in which the model voted: the point is that its votes do not decide.
      for (const noon of noonsUntil(() => modes.at(-1) === "council")) {
        const base = councilInputAt(feed, "TAO", noon, null);
        const tao = base.tao ?? { lastHourRangePct: null, volumeRatio: null, aiSentiment: null };
        const input: CouncilInput = { ...base, tao: { ...tao, liquidityStatus: "INSUFFICIENT" } };
        const s = await runSession(source, input);
        modes.push(s.mode);
        expect(s.riskFlags).toContain("LIQUIDITY_RISK");
        expect(s.ruling).toBe("AVOID");
        expectServiceRulesHold(s);
      }
      expect(modes.at(-1), `TAO sessions: ${modes.join(", ")}`).toBe("council");
      console.info(`real model, TAO with INSUFFICIENT liquidity: sessions until council mode: ${modes.join(", ")}`);
    },
    RETRYING_TEST_MS,
  );

  it(
    "replies cut off by the token limit fail validation: each such agent votes by rule and is counted failed",
    async () => {
      const { source, recorded } = sessionsFor({}, { maxReplyTokens: 6 });
      const input = councilInputAt(feed, "BTC", ordinaryNoons()[0] ?? 0, null);
      const s = await runSession(source, input);
      // No model vote survived validation: judiciary mode, every askable agent fell back to its rule.
      expect(s.mode).toBe("judiciary");
      expect(s.votes.filter((v) => v.source === "model")).toHaveLength(0);
      expect(s.explanationSource).toBe("template");
      const agentCalls = recorded.calls.filter((c) => c.agent !== CHIEF_JUDGE);
      expect(agentCalls.length).toBeGreaterThan(0);
      for (const c of agentCalls) expect(["invalid_reply", "budget"]).toContain(c.outcome);
      expect(agentCalls[0]?.outcome).toBe("invalid_reply");
      expect(s.agentsSucceeded + s.agentsFailed).toBe(6);
      expect(recorded.log.lines.find((l) => l.msg === "council session fell back to judiciary mode")?.reason).toMatch(/rejected after 1 repair/);
    },
    SESSION_TEST_MS,
  );

  it(
    "a call that times out mid-session: that agent and the rest vote by rule, the session completes in council mode with the failures counted",
    async () => {
      let frozen = false;
      const { source, recorded } = sessionsFor(
        // Long enough for an answer on a busy host, no retry: the hung call costs one timeout.
        { timeoutMs: 45_000, retry: { maxRetries: 0, baseDelayMs: 200, maxDelayMs: 200 } },
        {
          onCall: (r) => {
            // After the first answered agent the server stops answering (SIGSTOP): a hung provider.
            // (Waiting for a second valid reply made the test depend on a 135M model's luck: in one
            // CI run it answered outside the schema often enough that the hang never came.)
            if (r.outcome === "ok" && !frozen) {
              frozen = true;
              llama.freeze();
            }
          },
        },
      );
      try {
        // Until the session in which the model answered once and the server then hung.
        for (const noon of noonsUntil(() => frozen)) {
          const input = councilInputAt(feed, "BTC", noon, null);
          const before = recorded.calls.length;
          const started = Date.now();
          const s = await runSession(source, input);
          expect(Date.now() - started).toBeLessThan(180_000);
          const outcomes = recorded.calls.slice(before).map((c) => c.outcome);
          if (!frozen) {
            // No acceptable reply, no hang: a judiciary session, every question refused.
            expect(s.mode).toBe("judiciary");
            for (const o of outcomes) expect(o).toBe("invalid_reply");
            continue;
          }
          expect(s.mode).toBe("council");
          // Exactly one agent answered; every other one failed (invalid replies before the answer,
          // the hung call, and the agents after it, which vote by rule without asking).
          expect(s.agentsSucceeded).toBe(1);
          expect(s.agentsFailed).toBe(5);
          expect(s.votes.filter((v) => v.source === "rule").length + s.votes.filter((v) => v.source === "abstain").length).toBe(5);
          // A 135M model sometimes answers outside the schema (an invalid reply costs only that
          // agent, as in the healthy session above); the hung call is the last, and it timed out.
          expect(outcomes.at(-1)).toBe("timeout");
          expect(outcomes.filter((o) => o === "ok")).toHaveLength(1);
          for (const o of outcomes.slice(0, -1)) expect(["ok", "invalid_reply"]).toContain(o);
          expect(s.explanationSource).toBe("template");
        }
        expect(frozen, "the model answered in none of the sessions").toBe(true);
        // The hung call's own record names the timeout (the session's reason is its first failure,
        // which may be an earlier invalid reply).
        expect(recorded.calls.at(-1)?.reason).toMatch(/no complete reply within 45000 ms/);
      } finally {
        llama.thaw();
      }
    },
    RETRYING_TEST_MS,
  );
});
