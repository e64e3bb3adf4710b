import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/store.js";
import { ResponseCache, type CacheAnswer } from "../../src/http/response-cache.js";
import { ManualClock } from "../../src/runtime/clocks/clock.js";
import { freshStoreUrl, type StoreKind } from "../support/service.js";

/** An answer with its JSON text read back, to compare bodies as values. */
function read(answer: CacheAnswer): { body: Record<string, unknown>; cached: boolean; ttlLeft: number } {
  return { body: JSON.parse(answer.json) as Record<string, unknown>, cached: answer.cached, ttlLeft: answer.ttlLeft };
}

const T0 = Date.UTC(2026, 10, 25, 12);

/** The response cache every replica shares (issue 17), on both backends. */
describe.each<StoreKind>(["sqlite", "mongodb"])("shared response cache on %s", (kind) => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore(freshStoreUrl(kind, "respcache"));
  });
  afterAll(() => store.close());

  it("stores an entry only where none is live, and returns the one in force", async () => {
    expect(await store.responseCache.get("k")).toBeNull();
    const first = { body: '{"n":1}', expiresAt: T0 + 60_000 };
    expect(await store.responseCache.putIfVacant("k", first, T0)).toEqual({ entry: first, stored: true });
    const second = { body: '{"n":2}', expiresAt: T0 + 70_000 };
    expect(await store.responseCache.putIfVacant("k", second, T0 + 10_000)).toEqual({ entry: first, stored: false });
    // Expired: the next one replaces it.
    expect(await store.responseCache.putIfVacant("k", second, T0 + 60_000)).toEqual({ entry: second, stored: true });
    expect(await store.responseCache.get("k")).toEqual(second);
  });

  it("sweeps expired entries and keeps live ones", async () => {
    await store.responseCache.putIfVacant("short", { body: "{}", expiresAt: T0 + 1_000 }, T0);
    await store.responseCache.putIfVacant("long", { body: "{}", expiresAt: T0 + 600_000 }, T0);
    expect(await store.responseCache.sweepExpired(T0 + 100_000)).toBeGreaterThanOrEqual(1);
    expect(await store.responseCache.get("short")).toBeNull();
    expect(await store.responseCache.get("long")).not.toBeNull();
  });

  it("two replicas answer one key with the body the first computed, until it expires", async () => {
    const clock = new ManualClock(T0);
    const a = new ResponseCache(clock, { shared: store.responseCache });
    const b = new ResponseCache(clock, { shared: store.responseCache });
    let computed = 0;
    const compute = async () => ({ at: clock.now(), n: ++computed });
    expect(read(await a.getOrCompute("/v1/verdict/latest", 60, compute))).toEqual({ body: { at: T0, n: 1 }, cached: false, ttlLeft: 60 });
    clock.advance(20_000);
    // b never computed this key: it serves a's entry, from the cache, with a's expiry.
    expect(read(await b.getOrCompute("/v1/verdict/latest", 60, compute))).toEqual({ body: { at: T0, n: 1 }, cached: true, ttlLeft: 40 });
    expect(computed).toBe(1);
    clock.advance(40_000);
    // Expired for both: b computes the next one, and a (its local copy expired too) serves b's.
    expect(read(await b.getOrCompute("/v1/verdict/latest", 60, compute))).toEqual({ body: { at: T0 + 60_000, n: 2 }, cached: false, ttlLeft: 60 });
    clock.advance(1_000);
    expect(read(await a.getOrCompute("/v1/verdict/latest", 60, compute))).toEqual({ body: { at: T0 + 60_000, n: 2 }, cached: true, ttlLeft: 59 });
    expect(computed).toBe(2);
  });

  it("processes of another namespace (another build's schemas, the other feed) never serve each other's stored entries", async () => {
    const clock = new ManualClock(T0 + 7_200_000);
    const before = new ResponseCache(clock, { shared: store.responseCache, namespace: "build-1" });
    const after = new ResponseCache(clock, { shared: store.responseCache, namespace: "build-2" });
    const twin = new ResponseCache(clock, { shared: store.responseCache, namespace: "build-1" });
    expect((read(await before.getOrCompute("/v1/ghost/stats", 300, async () => ({ shape: "old" })))).body).toEqual({ shape: "old" });
    clock.advance(1_000);
    expect(read(await after.getOrCompute("/v1/ghost/stats", 300, async () => ({ shape: "new" })))).toEqual({ body: { shape: "new" }, cached: false, ttlLeft: 300 });
    // The same namespace on another replica still shares the entry.
    expect(read(await twin.getOrCompute("/v1/ghost/stats", 300, async () => ({ shape: "recomputed" })))).toEqual({ body: { shape: "old" }, cached: true, ttlLeft: 299 });
  });

  it("does not serve a stored entry whose text is not an object's (a row damaged outside the service)", async () => {
    const clock = new ManualClock(T0 + 10_800_000);
    await store.responseCache.putIfVacant("damaged", { body: "<html>", expiresAt: clock.now() + 60_000 }, clock.now());
    const cache = new ResponseCache(clock, { shared: store.responseCache });
    expect(read(await cache.getOrCompute("damaged", 60, async () => ({ fresh: true })))).toEqual({ body: { fresh: true }, cached: false, ttlLeft: 60 });
    // And the answer it computed is what it serves from then on.
    clock.advance(1_000);
    expect(read(await cache.getOrCompute("damaged", 60, async () => ({ fresh: "again" })))).toEqual({ body: { fresh: true }, cached: true, ttlLeft: 59 });
  });

  it("when two replicas compute one key at once, both serve the body that was stored first", async () => {
    const clock = new ManualClock(T0 + 3_600_000);
    const a = new ResponseCache(clock, { shared: store.responseCache });
    const b = new ResponseCache(clock, { shared: store.responseCache });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    // a computes slowly; b computes, stores and answers meanwhile.
    const slow = a.getOrCompute("race", 30, async () => {
      await gate;
      return { from: "a" };
    });
    const quick = await b.getOrCompute("race", 30, async () => ({ from: "b" }));
    release();
    const late = await slow;
    expect(read(quick)).toEqual({ body: { from: "b" }, cached: false, ttlLeft: 30 });
    expect(read(late)).toEqual({ body: { from: "b" }, cached: true, ttlLeft: 30 });
  });
});
