import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import type { CounterWindow } from "../../../src/store/ports/counters.js";
import { QuotaLeases } from "../../../src/application/quota-leases.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { freshStoreUrl, type StoreKind } from "../../support/service.js";
import { waitFor } from "../../support/wait-for.js";

const T0 = Date.UTC(2026, 10, 22, 10, 0, 0);
const day = (limit: number): CounterWindow => ({ bucket: "quota:k:2026-11-22", limit, expiresAt: Date.UTC(2026, 10, 23) });
const minute = (limit: number, end = T0 + 60_000): CounterWindow => ({ bucket: `minute:k:${end}`, limit, expiresAt: end });

/** Whether concurrent updates of one document are atomic here (not on FerretDB: DECISIONS 6). */
const concurrentOk = (kind: StoreKind) => kind === "sqlite" || Boolean(process.env.MONGODB_URL);

describe.each<StoreKind>(["sqlite", "mongodb"])("quota leases on %s", (kind) => {
  const opened: Store[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });
  /** A fresh store, and `n` connections to it: each one what a service process would hold. */
  async function connections(n: number): Promise<Store[]> {
    const url = freshStoreUrl(kind, "leases");
    const stores: Store[] = [];
    for (let i = 0; i < n; i++) stores.push(await openStore(url));
    opened.push(...stores);
    return stores;
  }

  it("serves calls from blocks that grow while they run out, with exact counts for one process", async () => {
    const [store] = (await connections(1)) as [Store];
    const clock = new ManualClock(T0);
    const leases = new QuotaLeases(store.counters, clock);
    const seen = new Set<number>();
    for (let i = 1; i <= 200; i++) {
      const r = await leases.consumeAll([day(10_000)], clock.now());
      expect(r).toEqual({ allowed: true, counts: [i], blockedIndex: null });
      seen.add(await store.counters.peek(day(10_000).bucket, clock.now()));
    }
    // The store's count moved only when a block was taken: 1, 2, 4, ... calls, 8 blocks for 200.
    expect(seen.size).toBe(8);
    expect([...seen].slice(0, 4)).toEqual([1, 3, 7, 15]);
    const held = leases.held().get(day(10_000).bucket) ?? 0;
    expect(await store.counters.peek(day(10_000).bucket, clock.now())).toBe(200 + held);
    await leases.close();
    expect(await store.counters.peek(day(10_000).bucket, clock.now())).toBe(200);
  });

  it("gives back what a block did not use once its lifetime and the grace are over, and keeps it before", async () => {
    const [store] = (await connections(1)) as [Store];
    const clock = new ManualClock(T0);
    const leases = new QuotaLeases(store.counters, clock);
    for (let i = 0; i < 4; i++) await leases.consumeAll([day(10_000)], clock.now());
    const bucket = day(10_000).bucket;
    expect(leases.held().get(bucket)).toBeGreaterThan(0);
    clock.advance(1_000);
    leases.sweep(clock.now());
    expect(leases.held().get(bucket)).toBeGreaterThan(0);
    clock.advance(250);
    leases.sweep(clock.now());
    await waitFor(async () => (await store.counters.peek(bucket, clock.now())) === 4, 5_000, "the unused calls to be given back");
    expect(leases.held().get(bucket)).toBe(0);
    // The next request after an idle spell takes one call again. A sweep leaves a lease alone
    // while its give-back is in flight, and on MongoDB the store shows the given-back count before
    // this process has the write's reply: the lease goes at the first sweep after that reply.
    clock.advance(5_000);
    await waitFor(async () => {
      leases.sweep(clock.now());
      return !leases.held().has(bucket);
    }, 5_000, "the idle lease to be dropped");
    expect(leases.held().has(bucket)).toBe(false);
    expect((await leases.consumeAll([day(10_000)], clock.now())).counts).toEqual([5]);
    expect(await store.counters.peek(bucket, clock.now())).toBe(5);
  });

  it("renews a block still in use at the end of its lifetime, down to what the lifetime used", async () => {
    const [store] = (await connections(1)) as [Store];
    const clock = new ManualClock(T0);
    const leases = new QuotaLeases(store.counters, clock);
    const bucket = day(10_000).bucket;
    // 1 + 2 + 4 + 8 + 16 = 31 calls taken for 20 requests: 11 held.
    for (let i = 0; i < 20; i++) await leases.consumeAll([day(10_000)], clock.now());
    expect(leases.held().get(bucket)).toBe(11);
    clock.advance(1_100);
    // The lifetime of the last block (16 calls, 5 used) is over: the renewal keeps 5, gives 6 back.
    expect((await leases.consumeAll([day(10_000)], clock.now())).counts).toEqual([21]);
    expect(leases.held().get(bucket)).toBe(4);
    expect(await store.counters.peek(bucket, clock.now())).toBe(25);
  });

  it("counts a request in every window or in none: a per-minute refusal takes nothing from the day", async () => {
    const [store] = (await connections(1)) as [Store];
    const clock = new ManualClock(T0);
    const leases = new QuotaLeases(store.counters, clock);
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push(await leases.consumeAll([day(100), minute(3)], clock.now()));
    expect(outcomes.map((o) => o.allowed)).toEqual([true, true, true, false, false]);
    expect(outcomes[3]).toEqual({ allowed: false, counts: [3, 3], blockedIndex: 1 });
    await leases.close();
    expect(await store.counters.peek(day(100).bucket, clock.now())).toBe(3);
  });

  it("forgets a block whose window ended instead of giving it back", async () => {
    const [store] = (await connections(1)) as [Store];
    const clock = new ManualClock(T0);
    const leases = new QuotaLeases(store.counters, clock);
    for (let i = 0; i < 4; i++) await leases.consumeAll([minute(1_000)], clock.now());
    expect(leases.held().get(minute(1_000).bucket)).toBeGreaterThan(0);
    clock.set(T0 + 60_000);
    leases.sweep(clock.now());
    expect(leases.held().has(minute(1_000).bucket)).toBe(false);
    const next = minute(1_000, T0 + 120_000);
    expect((await leases.consumeAll([next], clock.now())).counts).toEqual([1]);
  });

  it("counts per request after close, so nothing is leased that nobody would give back", async () => {
    const [store] = (await connections(1)) as [Store];
    const clock = new ManualClock(T0);
    const leases = new QuotaLeases(store.counters, clock);
    for (let i = 0; i < 6; i++) await leases.consumeAll([day(100)], clock.now());
    await leases.close();
    expect((await leases.consumeAll([day(100)], clock.now())).counts).toEqual([7]);
    expect(await store.counters.peek(day(100).bucket, clock.now())).toBe(7);
  });

  it("ends exactly at the limit for two processes taking turns, blocks of one call at the end", async () => {
    const [a, b] = (await connections(2)) as [Store, Store];
    const clock = new ManualClock(T0);
    const leases = [new QuotaLeases(a.counters, clock), new QuotaLeases(b.counters, clock)];
    let admitted = 0;
    const refusedAt: number[] = [];
    for (let i = 0; i < 160; i++) {
      const r = await (leases[i % 2] as QuotaLeases).consumeAll([day(100), minute(1_000)], clock.now());
      if (r.allowed) admitted += 1;
      else {
        expect(r.blockedIndex).toBe(0);
        refusedAt.push(i);
      }
    }
    expect(admitted).toBe(100);
    // Once both processes ran out, every request was refused: no block was left stranded.
    expect(refusedAt.at(-1)).toBe(159);
    expect(refusedAt.length).toBe(60);
    await Promise.all(leases.map((l) => l.close()));
    expect(await a.counters.peek(day(100).bucket, clock.now())).toBe(100);
  });

  if (concurrentOk(kind)) {
    // Not on FerretDB, which does not make concurrent updates of one document atomic
    // (DECISIONS 6): there the turn-taking test above stands for it.
    it("admits exactly the quota from two processes under a concurrent burst of 2,000", async () => {
      const [a, b] = (await connections(2)) as [Store, Store];
      const clock = new ManualClock(T0);
      const leases = [new QuotaLeases(a.counters, clock), new QuotaLeases(b.counters, clock)];
      const outcomes = await Promise.all(
        Array.from({ length: 2_000 }, (_, i) => (leases[i % 2] as QuotaLeases).consumeAll([day(100), minute(100_000)], clock.now())),
      );
      expect(outcomes.filter((o) => o.allowed)).toHaveLength(100);
      expect(outcomes.filter((o) => !o.allowed).every((o) => o.blockedIndex === 0)).toBe(true);
      await Promise.all(leases.map((l) => l.close()));
      expect(await a.counters.peek(day(100).bucket, clock.now())).toBe(100);
      expect(await a.counters.peek(minute(100_000).bucket, clock.now())).toBe(100);
    });
  }
});
