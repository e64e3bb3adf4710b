import { describe, expect, it } from "vitest";
import { ResponseCache, type CacheAnswer } from "../../../src/http/response-cache.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";

/** An answer with its JSON text read back, to compare bodies as values. */
function read(answer: CacheAnswer): { body: Record<string, unknown>; cached: boolean; ttlLeft: number } {
  return { body: JSON.parse(answer.json) as Record<string, unknown>, cached: answer.cached, ttlLeft: answer.ttlLeft };
}

describe("ResponseCache", () => {
  it("answers from cache until the TTL runs out, reporting the seconds left", async () => {
    const clock = new ManualClock(0);
    const cache = new ResponseCache(clock);
    let n = 0;
    const compute = async () => ({ n: ++n });
    expect(read(await cache.getOrCompute("k", 60, compute))).toEqual({ body: { n: 1 }, cached: false, ttlLeft: 60 });
    clock.advance(14_500);
    expect(read(await cache.getOrCompute("k", 60, compute))).toEqual({ body: { n: 1 }, cached: true, ttlLeft: 46 });
    clock.advance(45_500);
    expect(read(await cache.getOrCompute("k", 60, compute))).toEqual({ body: { n: 2 }, cached: false, ttlLeft: 60 });
  });

  it("computes once for concurrent misses on the same key", async () => {
    const cache = new ResponseCache(new ManualClock(0));
    let calls = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const compute = async () => {
      calls++;
      await gate;
      return { v: "x" };
    };
    const all = Promise.all([cache.getOrCompute("k", 30, compute), cache.getOrCompute("k", 30, compute), cache.getOrCompute("k", 30, compute)]);
    release();
    const answers = await all;
    expect(calls).toBe(1);
    expect(answers.filter((a) => !a.cached)).toHaveLength(1);
    expect(answers.every((a) => read(a).body.v === "x")).toBe(true);
  });

  it("does not keep a failed computation", async () => {
    const cache = new ResponseCache(new ManualClock(0));
    await expect(cache.getOrCompute("k", 30, async () => Promise.reject(new Error("store down")))).rejects.toThrow("store down");
    expect((read(await cache.getOrCompute("k", 30, async () => ({ ok: true })))).body).toEqual({ ok: true });
  });

  it("bounds its local copies by bytes, dropping expired copies first, then the least recently used", async () => {
    const clock = new ManualClock(0);
    // Each body is 100 characters of JSON; the bound holds eight.
    const body = (tag: string) => ({ tag, pad: "x".repeat(100 - JSON.stringify({ tag, pad: "" }).length) });
    const cache = new ResponseCache(clock, { maxBytes: 800 });
    await cache.getOrCompute("short", 1, async () => body("short"));
    for (const k of ["a", "b", "c", "d", "e", "f", "g"]) await cache.getOrCompute(k, 60, async () => body(k));
    expect([cache.size, cache.bytes]).toEqual([8, 800]);
    clock.advance(2_000);
    // Full: the expired copy goes, not a live one.
    await cache.getOrCompute("h", 60, async () => body("h"));
    expect([cache.size, cache.bytes]).toEqual([8, 800]);
    expect((read(await cache.getOrCompute("a", 60, async () => body("recomputed")))).cached).toBe(true);
    // Full of live copies: the least recently used one (b, since a was just read) goes.
    await cache.getOrCompute("i", 60, async () => body("i"));
    expect((read(await cache.getOrCompute("a", 60, async () => body("a2")))).body.tag).toBe("a");
    expect((read(await cache.getOrCompute("b", 60, async () => body("b2")))).body.tag).toBe("b2");
    expect(cache.bytes).toBeLessThanOrEqual(800);
  });

  it("keeps no local copy of a body over an eighth of its bound, yet answers it", async () => {
    const cache = new ResponseCache(new ManualClock(0), { maxBytes: 8_000 });
    let computed = 0;
    const big = async () => ({ n: ++computed, pad: "x".repeat(2_000) });
    expect((read(await cache.getOrCompute("big", 60, big))).body.n).toBe(1);
    expect(cache.size).toBe(0);
    // Without a shared store nothing holds it, so it is computed again.
    expect((read(await cache.getOrCompute("big", 60, big))).body.n).toBe(2);
  });
});
