import { describe, expect, it } from "vitest";
import { ResponseCache } from "../../../src/http/response-cache.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";

describe("ResponseCache", () => {
  it("answers from cache until the TTL runs out, reporting the seconds left", async () => {
    const clock = new ManualClock(0);
    const cache = new ResponseCache(clock);
    let n = 0;
    const compute = async () => ({ n: ++n });
    expect(await cache.getOrCompute("k", 60, compute)).toEqual({ body: { n: 1 }, cached: false, ttlLeft: 60 });
    clock.advance(14_500);
    expect(await cache.getOrCompute("k", 60, compute)).toEqual({ body: { n: 1 }, cached: true, ttlLeft: 46 });
    clock.advance(45_500);
    expect(await cache.getOrCompute("k", 60, compute)).toEqual({ body: { n: 2 }, cached: false, ttlLeft: 60 });
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
    expect(answers.every((a) => a.body.v === "x")).toBe(true);
  });

  it("does not keep a failed computation", async () => {
    const cache = new ResponseCache(new ManualClock(0));
    await expect(cache.getOrCompute("k", 30, async () => Promise.reject(new Error("store down")))).rejects.toThrow("store down");
    expect((await cache.getOrCompute("k", 30, async () => ({ ok: true }))).body).toEqual({ ok: true });
  });

  it("stays within its size bound, evicting expired entries first, then the oldest", async () => {
    const clock = new ManualClock(0);
    const cache = new ResponseCache(clock, 3);
    await cache.getOrCompute("short", 1, async () => ({ k: "short" }));
    await cache.getOrCompute("a", 60, async () => ({ k: "a" }));
    await cache.getOrCompute("b", 60, async () => ({ k: "b" }));
    clock.advance(2_000);
    await cache.getOrCompute("c", 60, async () => ({ k: "c" }));
    expect(cache.size).toBe(3);
    expect((await cache.getOrCompute("a", 60, async () => ({ k: "recomputed" }))).cached).toBe(true);
    await cache.getOrCompute("d", 60, async () => ({ k: "d" }));
    expect(cache.size).toBe(3);
    expect((await cache.getOrCompute("a", 60, async () => ({ k: "a2" }))).body).toEqual({ k: "a2" });
  });
});
