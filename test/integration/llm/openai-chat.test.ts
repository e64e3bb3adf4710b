import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CallBudget } from "../../../src/domain/council/call-budget.js";
import { MAX_REPLY_BYTES, OpenAiChatModel } from "../../../src/llm/openai-chat.js";
import { agentReplySchema } from "../../../src/llm/reply-schemas.js";
import { askStructured, REPAIR_ECHO_CHARS, UsageTally } from "../../../src/llm/structured-chat.js";
import type { LlmAttemptRecord } from "../../../src/llm/call-record.js";
import { replyFormat } from "../../../src/llm/reply-format.js";
import { loadConfig } from "../../../src/config/env.js";
import { RULINGS } from "../../../src/domain/market/vocabulary.js";
import { ChatServer, completion, errorBody, llmFailure } from "./chat-server.js";

const server = new ChatServer();
let baseUrl = "";
const sleeps: number[] = [];
const sleep = async (ms: number) => {
  sleeps.push(ms);
};

function model(over: Partial<ConstructorParameters<typeof OpenAiChatModel>[0]> = {}) {
  return new OpenAiChatModel({ baseUrl, apiKey: "sk-test", model: "test-model", timeoutMs: 300, retry: { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 2_000 }, sleep, ...over });
}

const ask = [{ role: "user" as const, content: "vote" }];
const schema = agentReplySchema(RULINGS);

beforeAll(async () => {
  baseUrl = await server.start();
});
afterAll(async () => {
  await server.stop();
});
beforeEach(() => {
  server.reset();
  sleeps.length = 0;
});

describe("OpenAI-compatible chat completions over HTTP", () => {
  it("sends the documented request with the reply's JSON Schema (structured output) and reads the assistant message", async () => {
    server.queue({ kind: "content", content: '{"ruling":"BUY","confidence":0.8,"thesis":"Trend up."}' });
    const reply = await model().complete({ messages: ask, reply: replyFormat("agent_vote", schema), maxTokens: 100 });
    expect(reply).toEqual({ text: '{"ruling":"BUY","confidence":0.8,"thesis":"Trend up."}', usage: { promptTokens: 10, completionTokens: 10 } });
    const [req] = server.received;
    expect(req?.path).toBe("/v1/chat/completions");
    expect(req?.headers.authorization).toBe("Bearer sk-test");
    expect(req?.headers["content-type"]).toMatch(/application\/json/);
    expect(req?.body).toMatchObject({ model: "test-model", messages: ask, max_tokens: 100 });
    // OpenAI's structured-output form, the schema generated from the zod schema that validates.
    expect(req?.body.response_format).toEqual({
      type: "json_schema",
      json_schema: {
        name: "agent_vote",
        strict: true,
        schema: {
          type: "object",
          properties: {
            ruling: { type: "string", enum: [...RULINGS] },
            confidence: { type: "number", minimum: 0, maximum: 1 },
            thesis: { type: "string", minLength: 1, maxLength: 500 },
          },
          required: ["ruling", "confidence", "thesis"],
          additionalProperties: false,
        },
      },
    });
  });

  it("LLM_RESPONSE_FORMAT=json_object: asks only for a JSON object, for providers that reject json_schema", async () => {
    server.queue({ kind: "content", content: '{"ruling":"BUY","confidence":0.8,"thesis":"Trend up."}' });
    const v = await askStructured(model({ responseFormat: "json_object" }), ask, "agent_vote", schema);
    expect(v).toEqual({ ruling: "BUY", confidence: 0.8, thesis: "Trend up." });
    expect(server.received[0]?.body.response_format).toEqual({ type: "json_object" });
    // The setting is part of the configuration, validated like every other.
    expect(loadConfig({ LLM_RESPONSE_FORMAT: "json_object" }).LLM_RESPONSE_FORMAT).toBe("json_object");
    expect(loadConfig({}).LLM_RESPONSE_FORMAT).toBe("json_schema");
    expect(() => loadConfig({ LLM_RESPONSE_FORMAT: "grammar" })).toThrow(/LLM_RESPONSE_FORMAT/);
  });

  it("json_object mode still rejects a reply of the wrong shape: zod validates every reply", async () => {
    server.fallback = { kind: "content", content: '{"vote":"BUY","certainty":"high"}' };
    const err = await llmFailure(askStructured(model({ responseFormat: "json_object" }), ask, "agent_vote", schema));
    expect(err.kind).toBe("invalid_reply");
    expect(server.received).toHaveLength(2);
  });

  it("no request without a reply format carries response_format; a provider without usage reports null", async () => {
    server.queue({ kind: "raw", body: JSON.stringify({ choices: [{ message: { content: "hi" } }] }) });
    expect(await model().complete({ messages: ask })).toEqual({ text: "hi", usage: null });
    expect(server.received[0]?.body.response_format).toBeUndefined();
  });

  it("the session deadline cuts an attempt's timeout and stops retries", async () => {
    server.fallback = { kind: "hang", ms: 2_000 };
    const started = Date.now();
    const err = await llmFailure(model({ timeoutMs: 5_000 }).complete({ messages: ask, deadlineAt: Date.now() + 200 }));
    expect(["timeout", "deadline"]).toContain(err.kind);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect((await llmFailure(model().complete({ messages: ask, deadlineAt: Date.now() - 1 }))).kind).toBe("deadline");
  });

  it("sends no Authorization header without a key", async () => {
    server.queue({ kind: "content", content: "{}" });
    await model({ apiKey: undefined }).complete({ messages: ask });
    expect(server.received[0]?.headers.authorization).toBeUndefined();
  });

  it("429 with Retry-After: waits as asked, then succeeds", async () => {
    server.queue({ kind: "status", status: 429, body: errorBody("Rate limit reached", "requests", "rate_limit_exceeded"), headers: { "retry-after": "1" } });
    server.queue({ kind: "content", content: "ok" });
    expect((await model().complete({ messages: ask })).text).toBe("ok");
    expect(server.received).toHaveLength(2);
    expect(sleeps).toEqual([1_000]);
  });

  it("429 asking for a longer wait than a retry may take: not asked again sooner than it said", async () => {
    server.queue({ kind: "status", status: 429, body: errorBody("Rate limit reached", "requests", "rate_limit_exceeded"), headers: { "retry-after": "60" } });
    server.queue({ kind: "content", content: "ok" });
    const err = await llmFailure(model().complete({ messages: ask }));
    expect(err.kind).toBe("rate_limited");
    expect(err.message).toMatch(/asked for a wait of 60 s/);
    expect(server.received).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("every attempt is reported, retries included: two 5xx before a success are seen, not only the success", async () => {
    const attempts: LlmAttemptRecord[] = [];
    server.queue({ kind: "status", status: 503, body: errorBody("overloaded", "server_error") });
    server.queue({ kind: "status", status: 429, body: errorBody("Rate limit reached", "requests") });
    server.queue({ kind: "content", content: "fine" });
    expect((await model({ observeAttempt: (a) => attempts.push(a) }).complete({ messages: ask })).text).toBe("fine");
    expect(attempts.map((a) => [a.outcome, a.status, a.retrying])).toEqual([
      ["server", 503, true],
      ["rate_limited", 429, true],
      ["ok", 200, false],
    ]);
    expect(attempts[0]?.reason).toMatch(/overloaded/);
    expect(attempts[2]?.reason).toBeNull();
  });

  it("429 every time: gives up after the retries with rate_limited", async () => {
    server.fallback = { kind: "status", status: 429, body: errorBody("Rate limit reached", "requests") };
    const err = await llmFailure(model().complete({ messages: ask }));
    expect(err.kind).toBe("rate_limited");
    expect(err.status).toBe(429);
    expect(err.message).toMatch(/Rate limit reached/);
    expect(server.received).toHaveLength(3);
    expect(sleeps).toEqual([100, 200]);
  });

  it("500 then success: exponential backoff", async () => {
    server.queue({ kind: "status", status: 500, body: errorBody("The server had an error", "server_error") });
    server.queue({ kind: "status", status: 503, body: "<html>upstream down</html>" });
    server.queue({ kind: "content", content: "fine" });
    expect((await model().complete({ messages: ask })).text).toBe("fine");
    expect(sleeps).toEqual([100, 200]);
  });

  it("500 every time: server error after 1 + 2 attempts", async () => {
    server.fallback = { kind: "status", status: 500, body: errorBody("The server had an error", "server_error") };
    const err = await llmFailure(model().complete({ messages: ask }));
    expect(err.kind).toBe("server");
    expect(server.received).toHaveLength(3);
  });

  it("401 is not retried", async () => {
    server.fallback = { kind: "status", status: 401, body: errorBody("Incorrect API key provided", "invalid_request_error", "invalid_api_key") };
    const err = await llmFailure(model().complete({ messages: ask }));
    expect(err).toMatchObject({ kind: "client", status: 401 });
    expect(server.received).toHaveLength(1);
  });

  it("a reply that does not finish in time is a timeout (body included), retried, then reported", async () => {
    server.fallback = { kind: "hang", ms: 2_000 };
    const started = Date.now();
    const err = await llmFailure(model({ timeoutMs: 150 }).complete({ messages: ask }));
    expect(err.kind).toBe("timeout");
    expect(server.received).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(1_800);
  });

  it("a 200 that is not a chat completion is a malformed envelope", async () => {
    server.fallback = { kind: "raw", body: '{"unexpected":true}' };
    expect((await llmFailure(model().complete({ messages: ask }))).kind).toBe("malformed_envelope");
    server.reset();
    server.fallback = { kind: "content", content: null };
    expect((await llmFailure(model().complete({ messages: ask }))).kind).toBe("malformed_envelope");
  });

  it("a reply whose token cap ran out before any answer is truncated: not retried, its tokens still counted", async () => {
    const cut = JSON.stringify({
      id: "chatcmpl-cut",
      object: "chat.completion",
      created: 1_700_000_000,
      model: "test-model",
      choices: [{ index: 0, message: { role: "assistant", content: "" }, finish_reason: "length" }],
      usage: { prompt_tokens: 350, completion_tokens: 2_200, total_tokens: 2_550 },
    });
    server.fallback = { kind: "raw", body: cut };
    const attempts: LlmAttemptRecord[] = [];
    const tally = new UsageTally();
    const err = await llmFailure(askStructured(model({ observeAttempt: (a) => attempts.push(a) }), ask, "agent_vote", schema, { tally }));
    expect(err.kind).toBe("truncated");
    expect(err.message).toMatch(/LLM_REASONING_TOKENS/);
    expect(server.received).toHaveLength(1);
    expect(attempts.map((a) => [a.outcome, a.retrying])).toEqual([["truncated", false]]);
    expect([tally.promptTokens, tally.completionTokens]).toEqual([350, 2_200]);
  });

  it("an unreachable provider is a network error", async () => {
    const dead = new OpenAiChatModel({ baseUrl: "http://127.0.0.1:9/v1", model: "m", timeoutMs: 500, retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 }, sleep });
    expect((await llmFailure(dead.complete({ messages: ask }))).kind).toBe("network");
  });

  it("each attempt, retries included, takes from the session budget", async () => {
    server.fallback = { kind: "status", status: 500, body: errorBody("down", "server_error") };
    const budget = new CallBudget(2);
    const err = await llmFailure(model().complete({ messages: ask }, budget));
    expect(err.kind).toBe("budget");
    expect(server.received).toHaveLength(2);
  });
});

describe("structured replies validated by zod", () => {
  it("accepts a fenced JSON reply and normalises spelling and percent confidence", async () => {
    server.queue({ kind: "content", content: 'Here you go:\n```json\n{"ruling":"strong buy","confidence":72,"thesis":"Trend and flows agree."}\n```' });
    const v = await askStructured(model(), ask, "agent_vote", schema);
    expect(v).toEqual({ ruling: "STRONG_BUY", confidence: 0.72, thesis: "Trend and flows agree." });
  });

  it("malformed JSON: one repair round with the model's reply and the problem, then accepted", async () => {
    server.queue({ kind: "content", content: '{"ruling": "BUY", "confidence": 0.7, "thesis": "cut off' });
    server.queue({ kind: "content", content: '{"ruling":"BUY","confidence":0.7,"thesis":"Complete now."}' });
    const v = await askStructured(model(), ask, "agent_vote", schema);
    expect(v.thesis).toBe("Complete now.");
    const repair = server.received[1]?.body.messages ?? [];
    expect(repair.at(-2)).toMatchObject({ role: "assistant" });
    expect(repair.at(-1)?.content).toMatch(/not a JSON object/);
  });

  it("malformed JSON twice: rejected as invalid_reply", async () => {
    server.fallback = { kind: "content", content: "I think BUY." };
    const err = await llmFailure(askStructured(model(), ask, "agent_vote", schema));
    expect(err.kind).toBe("invalid_reply");
    expect(server.received).toHaveLength(2);
  });

  it("a missing field is named in the repair request; still missing: rejected", async () => {
    server.fallback = { kind: "content", content: '{"ruling":"BUY","thesis":"No confidence given."}' };
    const err = await llmFailure(askStructured(model(), ask, "agent_vote", schema));
    expect(err.kind).toBe("invalid_reply");
    expect(err.message).toMatch(/confidence/);
    expect(server.received[1]?.body.messages.at(-1)?.content).toMatch(/confidence/);
  });

  it("a reply that goes round in a loop is rejected without a repair round: one request, the loop named", async () => {
    // As SmolLM2 wrote it: valid JSON up to the token cap, then cut inside the looping thesis.
    server.fallback = { kind: "content", content: `{"ruling": "STRONG_BUY", "confidence": 0.5, "thesis": "2026-03-23T07:00:00${".120Z".repeat(40)}` };
    const cut = await llmFailure(askStructured(model(), ask, "agent_vote", schema));
    expect(cut.kind).toBe("invalid_reply");
    expect(cut.message).toMatch(/without repair: it repeats itself \(the reply was not a JSON object\)/);
    expect(server.received).toHaveLength(1);
    // Well-formed JSON that fails the schema and loops: the same, the schema's complaint named.
    server.reset();
    const loop = "The market is bullish. The market is bearish. ".repeat(6);
    server.fallback = { kind: "content", content: JSON.stringify({ ruling: "BUY", thesis: loop }) };
    const looped = await llmFailure(askStructured(model(), ask, "agent_vote", schema));
    expect(looped.message).toMatch(/without repair: it repeats itself \(confidence: /);
    expect(server.received).toHaveLength(1);
  });

  it("a ruling outside the council's set is rejected (SOL never SELL)", async () => {
    const { SOL_RULINGS } = await import("../../../src/domain/market/vocabulary.js");
    server.fallback = { kind: "content", content: '{"ruling":"SELL","confidence":0.9,"thesis":"Trend down."}' };
    const err = await llmFailure(askStructured(model(), ask, "agent_vote", agentReplySchema(SOL_RULINGS)));
    expect(err.kind).toBe("invalid_reply");
  });

  it("confidence outside 0..1 (and not a percentage) is rejected", async () => {
    server.fallback = { kind: "content", content: '{"ruling":"BUY","confidence":-0.2,"thesis":"Trend flat."}' };
    expect((await llmFailure(askStructured(model(), ask, "agent_vote", schema))).kind).toBe("invalid_reply");
  });
});

describe("Chief Judge reply", () => {
  it("an explanation of many sentences is sent back for repair", async () => {
    const { chiefReplySchema } = await import("../../../src/llm/reply-schemas.js");
    server.queue({ kind: "content", content: JSON.stringify({ rationale: "Votes lean one way.", explanation: "One. Two. Three. Four. Five. Six." }) });
    server.queue({ kind: "content", content: JSON.stringify({ rationale: "Votes lean one way.", explanation: "The council rules BUY. Buyers lead. Risk is moderate." }) });
    const v = await askStructured(model(), ask, "chief_summary", chiefReplySchema("BUY"));
    expect(v.explanation).toBe("The council rules BUY. Buyers lead. Risk is moderate.");
    expect(server.received[1]?.body.messages.at(-1)?.content).toMatch(/two or three sentences/);
  });

  it("an explanation that does not state the computed ruling goes back for repair, in any spelling of it", async () => {
    const { chiefReplySchema } = await import("../../../src/llm/reply-schemas.js");
    server.queue({ kind: "content", content: JSON.stringify({ rationale: "Votes lean one way.", explanation: "Strong buy: load up now. There is no risk." }) });
    server.queue({ kind: "content", content: JSON.stringify({ rationale: "Votes lean one way.", explanation: "Strong sell pressure led the risk agent to veto. The council says avoid for now." }) });
    const v = await askStructured(model(), ask, "chief_summary", chiefReplySchema("AVOID"));
    expect(v.explanation).toMatch(/avoid for now/);
    expect(server.received[1]?.body.messages.at(-1)?.content).toMatch(/must state the council's ruling, AVOID/);
    // Underscores, spaces and hyphens are one spelling; a ruling inside another word is not named.
    const strongBuy = chiefReplySchema("STRONG_BUY");
    expect(strongBuy.safeParse({ rationale: "Votes lean one way.", explanation: "A strong-buy ruling. Momentum." }).success).toBe(true);
    expect(strongBuy.safeParse({ rationale: "Votes lean one way.", explanation: "A Strong Buy ruling. Momentum." }).success).toBe(true);
    expect(chiefReplySchema("HOLD").safeParse({ rationale: "Votes lean one way.", explanation: "Holders wait. Nothing moves." }).success).toBe(false);
  });
});

describe("Chief Judge reply: no confidence of its own", () => {
  it("a reply stating a confidence or chance figure goes back for repair; market figures pass", async () => {
    const { chiefReplySchema } = await import("../../../src/llm/reply-schemas.js");
    // What a model wrote when its prompt carried the uncalibrated 0.90 (published beside 0.52).
    server.queue({ kind: "content", content: JSON.stringify({ rationale: "Agents agree.", explanation: "The council rules BUY with 90% confidence. All agents agree." }) });
    server.queue({ kind: "content", content: JSON.stringify({ rationale: "Agents agree.", explanation: "The council rules BUY. BTC rose 5% this week on rising volume." }) });
    const v = await askStructured(model(), ask, "chief_summary", chiefReplySchema("BUY"));
    expect(v.explanation).toBe("The council rules BUY. BTC rose 5% this week on rising volume.");
    expect(server.received[1]?.body.messages.at(-1)?.content).toMatch(/must not state a confidence or probability figure/);
    const buy = chiefReplySchema("BUY");
    for (const [rationale, explanation] of [
      ["Confidence: 0.90.", "The council rules BUY."],
      ["r", "The council rules BUY. There is a 70% chance of gains."],
      ["r", "The council rules BUY, with a confidence of 0.85."],
    ] as const) {
      expect(buy.safeParse({ rationale, explanation }).success).toBe(false);
    }
    expect(buy.safeParse({ rationale: "Funding fell to 0.01% and RSI is 62.", explanation: "The council rules BUY. Volume is 1.5x its average." }).success).toBe(true);
  });

  it("is not given a confidence figure to restate", async () => {
    const { chiefPrompt } = await import("../../../src/domain/council/prompts.js");
    const { ROSTERS } = await import("../../../src/domain/council/rosters.js");
    const judgement = { ruling: "BUY", confidence: 0.9, score: 42.5, consensus: { level: "MAJORITY", direction: "BULLISH" }, vetoedBy: [] } as unknown as Parameters<typeof chiefPrompt>[2];
    const prompt = chiefPrompt(ROSTERS.BTC, [], judgement, []);
    expect(prompt.user).toContain("Ruling: BUY. Score: 42.5");
    expect(prompt.user).not.toMatch(/0\.90|Confidence/);
  });
});

describe("limits on what a provider can send", () => {
  it("a reply body over 256 KB is refused as a malformed envelope, without reading it all", async () => {
    server.fallback = { kind: "raw", body: completion("x".repeat(MAX_REPLY_BYTES)) };
    const err = await llmFailure(model().complete({ messages: ask }));
    expect(err.kind).toBe("malformed_envelope");
    expect(err.message).toMatch(/over 262144 bytes/);
  });

  it("a gzip bomb is counted unpacked: 300 KB on the wire that unpack to 8 MB are refused", async () => {
    const { gzipSync } = await import("node:zlib");
    server.fallback = { kind: "gzip", body: gzipSync(Buffer.from(completion(" ".repeat(8 * 1024 * 1024)))) };
    const err = await llmFailure(model().complete({ messages: ask }));
    expect(err.kind).toBe("malformed_envelope");
  });

  it("a provider's error message is cut to 200 characters; a repair echoes at most 2,000 characters of the bad reply", async () => {
    server.queue({ kind: "status", status: 401, body: errorBody("k".repeat(100_000), "invalid_request_error") });
    const err = await llmFailure(model().complete({ messages: ask }));
    expect(err.message.length).toBeLessThan(300);
    // Too long, yet no loop (a loop gets no repair round at all): 40 KB of distinct words.
    const long = Array.from({ length: 7_000 }, (_, i) => `w${i}`).join(" ");
    server.queue({ kind: "content", content: `{"ruling":"BUY","confidence":0.8,"thesis":"${long}"}` });
    server.queue({ kind: "content", content: '{"ruling":"BUY","confidence":0.8,"thesis":"Trend up."}' });
    await askStructured(model(), ask, "agent_vote", schema);
    const echoed = server.received.at(-1)?.body.messages.find((m) => m.role === "assistant")?.content ?? "";
    expect(echoed.length).toBe(REPAIR_ECHO_CHARS + 1);
  });

  it("a confidence between 1 and 2 is not guessed into a percentage: it goes back for repair", async () => {
    server.queue({ kind: "content", content: '{"ruling":"BUY","confidence":1.5,"thesis":"Trend flat."}' });
    server.queue({ kind: "content", content: '{"ruling":"BUY","confidence":"85%","thesis":"Trend flat."}' });
    const v = await askStructured(model(), ask, "agent_vote", schema);
    expect(v.confidence).toBe(0.85);
    expect(server.received).toHaveLength(2);
  });

  it("a provider that quotes the API key back (in an error body or a non-completion 200) never gets it into the error, which is logged", async () => {
    const key = "sk-live-0123456789abcdefSECRET";
    server.queue({ kind: "status", status: 401, body: errorBody(`Invalid API key: ${key}`, "invalid_request_error", "invalid_api_key") });
    const unauthorized = await llmFailure(model({ apiKey: key }).complete({ messages: ask }));
    expect(unauthorized.kind).toBe("client");
    expect(unauthorized.message).not.toContain(key);
    expect(unauthorized.message).toContain("Invalid API key: [LLM_API_KEY]");
    // A proxy's plain-text error page echoing the Authorization header.
    server.fallback = { kind: "raw", body: `upstream refused Authorization: Bearer ${key}` };
    const malformed = await llmFailure(model({ apiKey: key, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } }).complete({ messages: ask }));
    expect(malformed.kind).toBe("malformed_envelope");
    expect(malformed.message).not.toContain(key);
  });

  it("a network error names LLM_BASE_URL instead of quoting it", async () => {
    const err = await llmFailure(new OpenAiChatModel({ baseUrl: "http://127.0.0.1:1/secret-path/v1", model: "m", retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } }).complete({ messages: ask }));
    expect(err.kind).toBe("network");
    expect(err.message).not.toMatch(/secret-path/);
    expect(err.message).toMatch(/LLM_BASE_URL\/chat\/completions/);
  });
});
