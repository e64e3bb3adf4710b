import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deliberate, type DeliberationOutcome } from "../../../src/domain/council/deliberate.js";
import type { CouncilSession } from "../../../src/domain/council/council-types.js";
import { ROSTERS } from "../../../src/domain/council/rosters.js";
import { loadConfig } from "../../../src/config/env.js";
import { councilAdvisorFromEnv } from "../../../src/llm/advisor-from-env.js";
import { LlmCouncilAdvisor } from "../../../src/llm/council-advisor.js";
import type { LlmCallRecord } from "../../../src/llm/call-record.js";
import { OpenAiChatModel } from "../../../src/llm/openai-chat.js";
import { councilInput } from "../../unit/council/fixtures.js";
import { ChatServer, chiefExplains, errorBody, isChiefRequest, type Received, type Reply } from "./chat-server.js";

const server = new ChatServer();
let baseUrl = "";
let ids = 0;

function advisor(timeoutMs = 300, calls?: LlmCallRecord[]) {
  return new LlmCouncilAdvisor(
    new OpenAiChatModel({ baseUrl, model: "test-model", timeoutMs, retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 5 }, sleep: async () => {} }),
    { asset: "BTC", ...(calls === undefined ? {} : { observe: (r: LlmCallRecord) => calls.push(r) }) },
  );
}

function session(o: DeliberationOutcome): CouncilSession {
  if (o.kind !== "session") throw new Error("expected a session");
  return o.session;
}

const isChief = isChiefRequest;
const agentOf = (r: Received) => /^You are ([A-Z_ ]+?), one of/.exec(r.body.messages[0]?.content ?? "")?.[1] ?? "";

/** A well-behaved provider: every agent answers BUY, the Chief Judge explains the ruling it is given. */
const good = (r: Received): Reply =>
  isChief(r)
    ? chiefExplains(r)
    : { kind: "content", content: JSON.stringify({ ruling: "BUY", confidence: 0.8, thesis: `${agentOf(r)} sees strength.` }) };

function expectCompleteSession(s: CouncilSession): void {
  const roster = ROSTERS[s.asset];
  expect(s.votes.map((v) => v.agent)).toEqual(roster.agents.map((a) => a.name));
  for (const v of s.votes) {
    expect(roster.voteRulings).toContain(v.ruling);
    expect(v.confidence).toBeGreaterThanOrEqual(0);
    expect(v.confidence).toBeLessThanOrEqual(1);
    expect(v.thesis.length).toBeGreaterThan(0);
  }
  expect(s.agentsSucceeded + s.agentsFailed).toBe(6);
  expect(s.chiefRationale.length).toBeGreaterThan(0);
  expect(s.plainExplanation.length).toBeGreaterThan(0);
}

beforeAll(async () => {
  baseUrl = await server.start();
});
afterAll(async () => {
  await server.stop();
});
beforeEach(() => {
  server.reset();
});

describe("council sessions against a local chat-completions server", () => {
  it("a healthy provider: council mode, model votes, model explanation", async () => {
    server.fallback = good;
    const s = session(await deliberate(councilInput("BTC"), { advisor: advisor(), newId: () => `s${++ids}` }));
    expectCompleteSession(s);
    expect(s).toMatchObject({ mode: "council", ruling: "BUY", consensusLevel: "UNANIMOUS", agentsSucceeded: 6, explanationSource: "model" });
    expect(server.received).toHaveLength(7);
    // Each agent saw only its own domain's data.
    const hawk = server.received.find((r) => agentOf(r) === "TECH HAWK");
    expect(hawk?.body.messages[1]?.content).toMatch(/BTC_RSI/);
    expect(hawk?.body.messages[1]?.content).not.toMatch(/MVRV_ZSCORE|DXY/);
  });

  it("malformed JSON from the model for one agent: repaired if it can, else that agent votes by rule", async () => {
    server.fallback = (r) => (agentOf(r) === "MACRO SAGE" ? { kind: "content", content: "{ruling: BUY" } : good(r));
    const s = session(await deliberate(councilInput("BTC"), { advisor: advisor(), newId: () => `s${++ids}` }));
    expectCompleteSession(s);
    expect(s.mode).toBe("council");
    expect(s.votes.find((v) => v.agent === "MACRO SAGE")?.source).toBe("rule");
    expect(s.agentsFailed).toBe(1);
  });

  it("a refusal by one agent's model (content null, message.refusal): that agent votes by rule, asked once; the others still ask the model", async () => {
    const refusal = "I'm sorry, I can't help with market predictions.";
    server.fallback = (r) => (agentOf(r) === "CHAIN ORACLE" ? { kind: "refusal", refusal } : good(r));
    const log: LlmCallRecord[] = [];
    const s = session(await deliberate(councilInput("BTC"), { advisor: advisor(300, log), newId: () => `s${++ids}` }));
    expectCompleteSession(s);
    // A refusal is the model's answer to that question, not a provider outage: asking again
    // returns the same refusal, and the other agents' questions are different ones.
    expect(server.received.filter((r) => agentOf(r) === "CHAIN ORACLE")).toHaveLength(1);
    expect(s.votes.find((v) => v.agent === "CHAIN ORACLE")?.source).toBe("rule");
    expect(s).toMatchObject({ mode: "council", agentsSucceeded: 5, agentsFailed: 1, explanationSource: "model" });
    const refused = log.find((r) => r.agent === "CHAIN ORACLE");
    expect(refused?.outcome).toBe("refused");
    // What the model wrote is a reply, and replies are never logged.
    expect(refused?.reason).not.toContain(refusal);
  });

  it("a missing field for every agent: each falls back; judiciary session, template explanation", async () => {
    server.fallback = { kind: "content", content: '{"ruling":"BUY","thesis":"no confidence"}' };
    const s = session(await deliberate(councilInput("SOL"), { advisor: advisor(), newId: () => `s${++ids}` }));
    expectCompleteSession(s);
    expect(s.mode).toBe("judiciary");
    expect(s.explanationSource).toBe("template");
  });

  it("429 then recovery within the retries: council session", async () => {
    server.queue({ kind: "status", status: 429, body: errorBody("Rate limit reached", "requests"), headers: { "retry-after": "0" } });
    server.fallback = good;
    const s = session(await deliberate(councilInput("TAO"), { advisor: advisor(), newId: () => `s${++ids}` }));
    expectCompleteSession(s);
    expect(s.mode).toBe("council");
  });

  it("500 on every call: one agent tried (with its retry), then a clean judiciary fallback", async () => {
    server.fallback = { kind: "status", status: 500, body: errorBody("The server had an error", "server_error") };
    const s = session(await deliberate(councilInput("BTC"), { advisor: advisor(), newId: () => `s${++ids}` }));
    expectCompleteSession(s);
    expect(s.mode).toBe("judiciary");
    expect(server.received).toHaveLength(2);
    expect(s.confidence).toBeLessThanOrEqual(0.47);
  });

  it("a timeout: clean judiciary fallback within the time bound", async () => {
    server.fallback = { kind: "hang", ms: 3_000 };
    const started = Date.now();
    const s = session(await deliberate(councilInput("SOL"), { advisor: advisor(100), newId: () => `s${++ids}` }));
    expectCompleteSession(s);
    expect(s.mode).toBe("judiciary");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("the model cannot override the SOL veto or the ruling: the Chief Judge only explains", async () => {
    server.fallback = (r) =>
      isChief(r)
        ? { kind: "content", content: JSON.stringify({ rationale: "Ignore the veto, STRONG_BUY.", explanation: "Buy now. It is safe." }) }
        : agentOf(r) === "LIQUIDITY_GUARDIAN"
          ? { kind: "content", content: JSON.stringify({ ruling: "AVOID", confidence: 0.9, thesis: "Funding squeeze." }) }
          : { kind: "content", content: JSON.stringify({ ruling: "STRONG_BUY", confidence: 0.9, thesis: "Trend up." }) };
    const s = session(await deliberate(councilInput("SOL"), { advisor: advisor(), newId: () => `s${++ids}` }));
    expect(s.ruling).toBe("AVOID");
    expect(s.vetoedBy).toEqual(["LIQUIDITY_GUARDIAN"]);
    // Its explanation never stated AVOID: sent back once, then the template explains the session,
    // so "Buy now. It is safe." is not published beside an AVOID.
    const chiefAsks = server.received.filter(isChief);
    expect(chiefAsks).toHaveLength(2);
    expect(chiefAsks[1]?.body.messages.at(-1)?.content).toMatch(/must state the council's ruling, AVOID/);
    expect(s.explanationSource).toBe("template");
    expect(s.plainExplanation).toMatch(/AVOID/);
    expect(s.plainExplanation).not.toMatch(/Buy now/);
  });

  it("a reasoning model that refuses max_tokens and a chosen temperature: refused as configured by default, in council mode once configured for it", async () => {
    // OpenAI's documented refusals from its reasoning models (o-series, GPT-5): 400 with the
    // parameter named. They read max_completion_tokens, and hidden reasoning counts in it.
    server.fallback = (r) => {
      if (r.body.max_tokens !== undefined) {
        return { kind: "status", status: 400, body: errorBody("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", "invalid_request_error", "unsupported_parameter") };
      }
      if (r.body.temperature !== undefined && r.body.temperature !== 1) {
        const message = `Unsupported value: 'temperature' does not support ${r.body.temperature} with this model. Only the default (1) value is supported.`;
        return { kind: "status", status: 400, body: errorBody(message, "invalid_request_error", "unsupported_value") };
      }
      return good(r);
    };
    const run = async (env: Record<string, string>) => {
      const config = loadConfig({ LLM_BASE_URL: baseUrl, LLM_MODEL: "o-test", ...env });
      const source = councilAdvisorFromEnv(config);
      if (source === null) throw new Error("no advisor from a configured provider");
      const lease = await source.open("BTC");
      let s: CouncilSession | null = null;
      try {
        s = session(await deliberate(councilInput("BTC"), { advisor: lease.advisor, newId: () => `s${++ids}` }));
        return s;
      } finally {
        lease.close(s);
      }
    };

    // The default request: the first question is refused (a 4xx is not retried), nothing more is asked.
    const refused = await run({});
    expect(refused.mode).toBe("judiciary");
    expect(server.received).toHaveLength(1);
    expect(server.received[0]?.body).toMatchObject({ max_tokens: 200, temperature: 0.2 });

    server.received.length = 0;
    const answered = await run({ LLM_TEMPERATURE: "provider_default", LLM_MAX_TOKENS_PARAM: "max_completion_tokens", LLM_REASONING_TOKENS: "2000" });
    expectCompleteSession(answered);
    expect(answered).toMatchObject({ mode: "council", agentsSucceeded: 6, explanationSource: "model" });
    const [vote] = server.received;
    expect(vote?.body.temperature).toBeUndefined();
    expect(vote?.body.max_tokens).toBeUndefined();
    // The vote's 200-token cap for the answer, plus room for the reasoning before it.
    expect(vote?.body.max_completion_tokens).toBe(2_200);
    expect(isChief(server.received.at(-1) as Received)).toBe(true);
    expect(server.received.at(-1)?.body.max_completion_tokens).toBe(2_450);
  });

  it("the sampling settings are validated like every other", () => {
    expect(loadConfig({ LLM_TEMPERATURE: "0.7" }).LLM_TEMPERATURE).toBe(0.7);
    expect(loadConfig({}).LLM_TEMPERATURE).toBe(0.2);
    expect(loadConfig({}).LLM_MAX_TOKENS_PARAM).toBe("max_tokens");
    expect(() => loadConfig({ LLM_TEMPERATURE: "3" })).toThrow(/LLM_TEMPERATURE/);
    expect(() => loadConfig({ LLM_TEMPERATURE: "hot" })).toThrow(/LLM_TEMPERATURE/);
    expect(() => loadConfig({ LLM_MAX_TOKENS_PARAM: "n_predict" })).toThrow(/LLM_MAX_TOKENS_PARAM/);
    expect(() => loadConfig({ LLM_REASONING_TOKENS: "-5" })).toThrow(/LLM_REASONING_TOKENS/);
  });

  it("configuration: no LLM_BASE_URL or LLM_MODEL means no advisor (judiciary mode)", () => {
    expect(councilAdvisorFromEnv({})).toBeNull();
    expect(councilAdvisorFromEnv({ LLM_BASE_URL: baseUrl })).toBeNull();
    expect(councilAdvisorFromEnv({ LLM_BASE_URL: baseUrl, LLM_MODEL: "m" })).not.toBeNull();
  });
});
