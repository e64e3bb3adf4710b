import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ModelCallCap } from "../../../src/application/model-call-cap.js";
import { loadConfig } from "../../../src/config/env.js";
import { OpenAiChatModel } from "../../../src/llm/openai-chat.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import { freshStoreUrl, type StoreKind } from "../../support/service.js";
import { ChatServer, llmFailure } from "./chat-server.js";

/**
 * LLM_MAX_CALLS_PER_HOUR: one allowance of model attempts per wall-clock hour for every replica
 * together, counted in the store. Two replicas here are two models on two handles of one store.
 */
const server = new ChatServer();
let baseUrl = "";
const ask = [{ role: "user" as const, content: "vote" }];

beforeAll(async () => {
  baseUrl = await server.start();
});
afterAll(async () => {
  await server.stop();
});
beforeEach(() => {
  server.reset();
  server.fallback = { kind: "content", content: "ok" };
});

describe.each<StoreKind>(["sqlite", "mongodb"])("the hourly cap on model calls on %s", (kind) => {
  it("is shared by replicas: once the hour's calls are spent no replica sends another until the next hour", async () => {
    const url = freshStoreUrl(kind, "llm-cap");
    const stores: Store[] = [await openStore(url), await openStore(url)];
    try {
      const clock = new ManualClock(Date.UTC(2026, 11, 5, 14, 10));
      const replica = (store: Store) =>
        new OpenAiChatModel({ baseUrl, model: "m", timeoutMs: 2_000, hourlyAllowance: () => new ModelCallCap(store.counters, clock, 3).take() });
      const [a, b] = stores.map(replica) as [OpenAiChatModel, OpenAiChatModel];
      expect((await a.complete({ messages: ask })).text).toBe("ok");
      expect((await b.complete({ messages: ask })).text).toBe("ok");
      expect((await a.complete({ messages: ask })).text).toBe("ok");
      const capped = await llmFailure(b.complete({ messages: ask }));
      expect(capped.kind).toBe("capped");
      expect(capped.message).toContain("LLM_MAX_CALLS_PER_HOUR");
      expect(await llmFailure(a.complete({ messages: ask }))).toMatchObject({ kind: "capped" });
      // Refused before any request: the provider saw three.
      expect(server.received).toHaveLength(3);
      clock.advance(50 * 60_000);
      expect((await b.complete({ messages: ask })).text).toBe("ok");
      expect(server.received).toHaveLength(4);
    } finally {
      for (const s of stores) await s.close();
    }
  }, 60_000);
});

describe("the hourly cap's setting", () => {
  it("counts retries as calls, and a cap that cannot be read counts as spent", async () => {
    let taken = 0;
    server.reset();
    server.queue({ kind: "status", status: 503, body: "{}" });
    server.fallback = { kind: "content", content: "ok" };
    const model = new OpenAiChatModel({
      baseUrl,
      model: "m",
      timeoutMs: 2_000,
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 1 },
      hourlyAllowance: async () => ++taken <= 2,
    });
    expect((await model.complete({ messages: ask })).text).toBe("ok");
    expect(taken).toBe(2);
    const unreadable = new OpenAiChatModel({ baseUrl, model: "m", hourlyAllowance: () => Promise.reject(new Error("store down")) });
    const unread = await llmFailure(unreadable.complete({ messages: ask }));
    expect(unread.kind).toBe("capped");
    expect(unread.message).toContain("could not be read from the store");
    expect(server.received).toHaveLength(2);
  });

  it("is unset by default and refuses 0", () => {
    expect(loadConfig({}).LLM_MAX_CALLS_PER_HOUR).toBeUndefined();
    expect(loadConfig({ LLM_MAX_CALLS_PER_HOUR: "600" }).LLM_MAX_CALLS_PER_HOUR).toBe(600);
    expect(() => loadConfig({ LLM_MAX_CALLS_PER_HOUR: "0" })).toThrow(/LLM_MAX_CALLS_PER_HOUR/);
  });
});
