import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/store.js";
import type { ApiKeyRecord } from "../../src/store/ports/api-keys.js";
import { freshStoreUrl, type StoreKind } from "../support/service.js";
import { openSqlite } from "../../src/store/sqlite/database.js";
import { applyMigrations } from "../../src/store/sqlite/migrate.js";
import { accessMigrations } from "../../src/store/sqlite/access.js";
import { openMongo } from "../../src/store/mongo/database.js";
import { hashUnsubscribeToken } from "../../src/domain/access/unsubscribe-token.js";

/** Runs test/support/reserve-blocks.ts as its own process and parses its one line of output. */
function reserveBlocks(args: string[]): Promise<{ granted: number; released: number; maxCount: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "test/support/reserve-blocks.ts", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out) as { granted: number; released: number; maxCount: number }) : reject(new Error(`exit ${String(code)}: ${err}`))));
  });
}

/** A subscriber's row or document as stored, fields the port hides included, as JSON. */
async function rawSubscriber(kind: StoreKind, url: string, email: string): Promise<string> {
  if (kind === "sqlite") {
    const db = openSqlite(url.slice("sqlite:".length));
    try {
      return JSON.stringify(db.prepare("SELECT * FROM newsletter_subscribers WHERE email = ?").get(email));
    } finally {
      db.close();
    }
  }
  const { client, db } = await openMongo(url);
  try {
    return JSON.stringify(await db.collection("newsletter_subscribers").findOne({ email }));
  } finally {
    await client.close();
  }
}

function key(id: string, hash: string, over: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id,
    usageId: id,
    hash,
    prefix: "svc_free_abcd",
    tier: "free",
    name: "n",
    email: null,
    active: true,
    createdAt: `2026-01-01T00:00:0${id.length % 10}.000Z`,
    deactivatedAt: null,
    ...over,
  };
}

describe.each<StoreKind>(["sqlite", "mongodb"])("access repositories on %s", (kind) => {
  let store: Store;
  let url: string;
  beforeAll(async () => {
    url = freshStoreUrl(kind, "access");
    store = await openStore(url);
  });
  afterAll(async () => {
    await store.close();
  });

  it("stores keys by hash and never needs the key itself", async () => {
    await store.apiKeys.create(key("k1", "a".repeat(64)));
    const found = await store.apiKeys.findByHash("a".repeat(64));
    expect(found).toMatchObject({ id: "k1", tier: "free", active: true, deactivatedAt: null });
    expect(await store.apiKeys.findByHash("b".repeat(64))).toBeNull();
  });

  it("rejects a second key with the same hash", async () => {
    await expect(store.apiKeys.create(key("k1-dup", "a".repeat(64)))).rejects.toThrow();
  });

  it("deactivates once and records when", async () => {
    await store.apiKeys.create(key("k2", "c".repeat(64)));
    expect(await store.apiKeys.deactivate("c".repeat(64), "2026-02-02T00:00:00.000Z")).toBe(true);
    expect(await store.apiKeys.deactivate("c".repeat(64), "2026-02-03T00:00:00.000Z")).toBe(false);
    expect(await store.apiKeys.findByHash("c".repeat(64))).toMatchObject({ active: false, deactivatedAt: "2026-02-02T00:00:00.000Z" });
  });

  it("rotates: the new key is active, the old one is not, and an inactive key cannot rotate", async () => {
    await store.apiKeys.create(key("k3", "d".repeat(64)));
    expect(await store.apiKeys.rotate("d".repeat(64), key("k4", "e".repeat(64)), "2026-03-01T00:00:00.000Z")).toBe(true);
    expect((await store.apiKeys.findByHash("d".repeat(64)))?.active).toBe(false);
    expect((await store.apiKeys.findByHash("e".repeat(64)))?.active).toBe(true);
    expect(await store.apiKeys.rotate("d".repeat(64), key("k5", "f".repeat(64)), "2026-03-02T00:00:00.000Z")).toBe(false);
    expect(await store.apiKeys.findByHash("f".repeat(64))).toBeNull();
  });

  it("keeps a rotated key's usage id: the successor counts against its predecessor's quota", async () => {
    await store.apiKeys.create(key("k6", "1".repeat(64)));
    expect(await store.apiKeys.rotate("1".repeat(64), key("k7", "2".repeat(64), { usageId: "k6" }), "2026-03-03T00:00:00.000Z")).toBe(true);
    expect(await store.apiKeys.findByHash("2".repeat(64))).toMatchObject({ id: "k7", usageId: "k6", active: true });
    expect(await store.apiKeys.findById("k7")).toMatchObject({ usageId: "k6" });
    // The lineage's active key is the successor; once it goes, the lineage has none.
    expect(await store.apiKeys.findActiveByUsageId("k6")).toMatchObject({ id: "k7" });
    expect(await store.apiKeys.deactivate("2".repeat(64), "2026-03-03T01:00:00.000Z")).toBe(true);
    expect(await store.apiKeys.findActiveByUsageId("k6")).toBeNull();
    expect(await store.apiKeys.findActiveByUsageId("k7")).toBeNull();
  });

  it("leaves nothing behind when a rotation loses to a deactivation", async () => {
    await store.apiKeys.create(key("k8", "3".repeat(64)));
    await store.apiKeys.deactivate("3".repeat(64), "2026-03-04T00:00:00.000Z");
    expect(await store.apiKeys.rotate("3".repeat(64), key("k9", "4".repeat(64)), "2026-03-04T00:00:01.000Z")).toBe(false);
    expect(await store.apiKeys.findByHash("4".repeat(64))).toBeNull();
    expect(await store.apiKeys.findById("k9")).toBeNull();
  });

  if (kind === "mongodb") {
    // MongoDB has no multi-document transaction here, so rotate is two writes: the new key (with
    // its predecessor's hash), then the old key's deactivation. This is what a process that died
    // between them leaves: a successor nobody was ever shown, active, in the same lineage.
    it("ends a rotation's unfinished successor when its predecessor is deactivated, so the lineage (and its webhooks) ends with it", async () => {
      await store.apiKeys.create(key("k10", "5".repeat(64)));
      const { client, db } = await openMongo(url);
      try {
        const orphan = key("k11", "6".repeat(64), { usageId: "k10" });
        await db.collection<ApiKeyRecord & { _id: string; rotatedFrom: string }>("api_keys").insertOne({ _id: orphan.id, ...orphan, rotatedFrom: "5".repeat(64) });
      } finally {
        await client.close();
      }
      expect(await store.apiKeys.findActiveByUsageId("k10")).toMatchObject({ id: "k10" });
      expect(await store.apiKeys.deactivate("5".repeat(64), "2026-03-05T00:00:00.000Z")).toBe(true);
      expect(await store.apiKeys.findByHash("6".repeat(64))).toMatchObject({ active: false, deactivatedAt: "2026-03-05T00:00:00.000Z" });
      expect(await store.apiKeys.findActiveByUsageId("k10")).toBeNull();
      // A finished rotation's successor is untouched by anything done to the key it replaced.
      await store.apiKeys.create(key("k12", "7".repeat(64)));
      expect(await store.apiKeys.rotate("7".repeat(64), key("k13", "8".repeat(64), { usageId: "k12" }), "2026-03-05T01:00:00.000Z")).toBe(true);
      expect(await store.apiKeys.deactivate("7".repeat(64), "2026-03-05T02:00:00.000Z")).toBe(false);
      expect(await store.apiKeys.findActiveByUsageId("k12")).toMatchObject({ id: "k13" });
    });
  }

  it("lists every key", async () => {
    const ids = (await store.apiKeys.list()).map((k) => k.id).sort();
    expect(ids).toEqual(kind === "mongodb" ? ["k1", "k10", "k11", "k12", "k13", "k2", "k3", "k4", "k6", "k7", "k8"] : ["k1", "k2", "k3", "k4", "k6", "k7", "k8"]);
  });

  it("writes a key's owner fields again and nothing else of it", async () => {
    await store.apiKeys.create(key("owner", "o".repeat(64), { name: "as given", email: "as.given@example.com" }));
    await store.apiKeys.rewriteOwner("owner", "sealed-name", "sealed-email");
    expect(await store.apiKeys.findByHash("o".repeat(64))).toMatchObject({ id: "owner", usageId: "owner", name: "sealed-name", email: "sealed-email", active: true, tier: "free" });
    await store.apiKeys.rewriteOwner("owner", null, null);
    expect(await store.apiKeys.findById("owner")).toMatchObject({ name: null, email: null, hash: "o".repeat(64) });
  });

  it("writes a key's owner fields over what was read only: fields cleared since stay cleared", async () => {
    await store.apiKeys.create(key("owner2", "p".repeat(64), { name: "as given", email: "as.given@example.com" }));
    const read = { name: "as given", email: "as.given@example.com" };
    expect(await store.apiKeys.rewriteOwner("owner2", "sealed-name", "sealed-email", read)).toBe(true);
    expect(await store.apiKeys.findById("owner2")).toMatchObject({ name: "sealed-name", email: "sealed-email" });
    // An erasure lands between a re-seal's read and its write.
    const stale = { name: "sealed-name", email: "sealed-email" };
    await store.apiKeys.rewriteOwner("owner2", null, null);
    expect(await store.apiKeys.rewriteOwner("owner2", "sealed-again", "sealed-again", stale)).toBe(false);
    expect(await store.apiKeys.findById("owner2")).toMatchObject({ name: null, email: null });
    // Null fields are matched as null.
    expect(await store.apiKeys.rewriteOwner("owner2", null, "x", { name: null, email: null })).toBe(true);
    expect(await store.apiKeys.findById("owner2")).toMatchObject({ name: null, email: "x" });
  });

  it("counts a hit in every window or in none", async () => {
    const now = 1_000_000;
    const daily = { bucket: "q:day", limit: 3, expiresAt: now + 86_400_000 };
    const minute = { bucket: "q:min", limit: 2, expiresAt: now + 60_000 };
    expect(await store.counters.consumeAll([daily, minute], now)).toEqual({ allowed: true, counts: [1, 1], blockedIndex: null });
    expect(await store.counters.consumeAll([daily, minute], now)).toEqual({ allowed: true, counts: [2, 2], blockedIndex: null });
    const refused = await store.counters.consumeAll([daily, minute], now);
    expect(refused).toEqual({ allowed: false, counts: [2, 2], blockedIndex: 1 });
    // The refused hit did not count toward the daily window.
    expect(await store.counters.peek("q:day", now)).toBe(2);
    // A full first window: refused there, and the windows after it are not counted either.
    const nextMinute = { bucket: "q:min2", limit: 2, expiresAt: now + 120_000 };
    expect(await store.counters.consumeAll([daily, nextMinute], now)).toEqual({ allowed: true, counts: [3, 1], blockedIndex: null });
    expect(await store.counters.consumeAll([daily, nextMinute], now)).toEqual({ allowed: false, counts: [3, 1], blockedIndex: 0 });
    expect(await store.counters.peek("q:min2", now)).toBe(1);
  });

  if (kind === "sqlite" || process.env.MONGODB_URL) {
    // Concurrent hits on one key's windows (sequential-only on FerretDB, DECISIONS 6). On SQLite
    // they arrive in one group commit and are counted together while every window has room.
    it("counts concurrent hits of one key as if one after another, and refuses past the limit", async () => {
      const now = 2_000_000;
      const daily = { bucket: "c:day", limit: 7, expiresAt: now + 86_400_000 };
      const minute = { bucket: "c:min", limit: 100, expiresAt: now + 60_000 };
      const first = await Promise.all(Array.from({ length: 4 }, () => store.counters.consumeAll([daily, minute], now)));
      expect(first.every((r) => r.allowed)).toBe(true);
      expect(first.map((r) => r.counts[0]).sort()).toEqual([1, 2, 3, 4]);
      expect(first.map((r) => r.counts[1]).sort()).toEqual([1, 2, 3, 4]);
      // Room for three of the next five: the other two are counted nowhere.
      const second = await Promise.all(Array.from({ length: 5 }, () => store.counters.consumeAll([daily, minute], now)));
      expect(second.filter((r) => r.allowed).map((r) => r.counts[0]).sort()).toEqual([5, 6, 7]);
      expect(second.filter((r) => !r.allowed).map((r) => r.blockedIndex)).toEqual([0, 0]);
      expect(await store.counters.peek("c:day", now)).toBe(7);
      expect(await store.counters.peek("c:min", now)).toBe(7);
    });
  }

  it("restarts an expired window at one", async () => {
    const w = { bucket: "q:exp", limit: 1, expiresAt: 5_000 };
    expect((await store.counters.consumeAll([w], 1_000)).allowed).toBe(true);
    expect((await store.counters.consumeAll([w], 2_000)).allowed).toBe(false);
    const next = { bucket: "q:exp", limit: 1, expiresAt: 9_000 };
    expect(await store.counters.consumeAll([next], 6_000)).toEqual({ allowed: true, counts: [1], blockedIndex: null });
    expect(await store.counters.peek("q:exp", 10_000)).toBe(0);
  });

  it("sweeps expired windows", async () => {
    await store.counters.consumeAll([{ bucket: "q:sweep", limit: 5, expiresAt: 100 }], 50);
    expect(await store.counters.sweepExpired(200)).toBeGreaterThanOrEqual(1);
    expect(await store.counters.peek("q:sweep", 60)).toBe(0);
  });

  it("leases blocks of calls: never more than what is left, and the window counts them at once", async () => {
    const now = 2_000_000;
    const w = { bucket: "lease:a", limit: 10, expiresAt: now + 60_000 };
    expect(await store.counters.reserve(w, 4, now)).toEqual({ granted: 4, count: 4 });
    expect(await store.counters.reserve(w, 5, now)).toEqual({ granted: 5, count: 9 });
    expect(await store.counters.reserve(w, 5, now)).toEqual({ granted: 1, count: 10 });
    expect(await store.counters.reserve(w, 1, now)).toEqual({ granted: 0, count: 10 });
    expect(await store.counters.peek("lease:a", now)).toBe(10);
    // A request counted per request finds no room either: leased calls are counted calls.
    expect((await store.counters.consumeAll([w], now)).allowed).toBe(false);
  });

  it("takes a block as large as the whole limit into a new window, and no more", async () => {
    const now = 2_000_000;
    expect(await store.counters.reserve({ bucket: "lease:new", limit: 3, expiresAt: now + 1_000 }, 50, now)).toEqual({ granted: 3, count: 3 });
  });

  it("gives unused calls back, only into the window they came from and never below zero", async () => {
    const now = 3_000_000;
    const w = { bucket: "lease:b", limit: 10, expiresAt: now + 60_000 };
    await store.counters.reserve(w, 8, now);
    expect(await store.counters.release(w, 3, now)).toBe(5);
    expect(await store.counters.reserve(w, 9, now)).toEqual({ granted: 5, count: 10 });
    expect(await store.counters.release(w, 11, now)).toBe(10);
    expect(await store.counters.release({ bucket: "lease:none", limit: 10, expiresAt: now + 60_000 }, 2, now)).toBe(0);
    // The same bucket name in a later window restarts empty; a late give-back from the old
    // window leaves the new one alone.
    const later = now + 120_000;
    const next = { bucket: "lease:b", limit: 10, expiresAt: later + 60_000 };
    expect(await store.counters.reserve(next, 2, later)).toEqual({ granted: 2, count: 2 });
    expect(await store.counters.release(w, 1, later)).toBe(2);
  });

  if (kind === "sqlite" || process.env.MONGODB_URL) {
    // FerretDB does not make concurrent updates of one document atomic (DECISIONS 6), so this
    // test exists only on SQLite and on a real MongoDB named by MONGODB_URL; FerretDB runs the
    // sequential version below instead.
    it("never grants past the limit to two processes reserving and giving back at once", async () => {
      const url = freshStoreUrl(kind, "leases");
      const limit = 3_000;
      const expiresAt = Date.now() + 3_600_000;
      // Creates the schema before the two processes race for it.
      const owner = await openStore(url);
      try {
        const startAt = Date.now() + 2_000;
        const runs = await Promise.all([1, 2].map((seed) => reserveBlocks([url, "lease:race", String(limit), String(expiresAt), String(startAt), String(seed)])));
        const net = runs.reduce((s, r) => s + r.granted - r.released, 0);
        for (const r of runs) {
          expect(r.maxCount).toBeLessThanOrEqual(limit);
          // Both took part: the race was real.
          expect(r.granted).toBeGreaterThan(0);
        }
        // Every call granted and not given back is in the count: no update was lost.
        expect(await owner.counters.peek("lease:race", Date.now())).toBe(net);
        expect(net).toBeGreaterThan(limit - 10);
      } finally {
        await owner.close();
      }
    });
  } else {
    it("keeps exact books for two store connections taking turns (sequential on FerretDB, DECISIONS 6)", async () => {
      const other = await openStore(url);
      try {
        const now = 4_000_000;
        const w = { bucket: "lease:turns", limit: 50, expiresAt: now + 60_000 };
        let held = 0;
        let refusals = 0;
        for (let i = 0; refusals < 2; i++) {
          const r = await (i % 2 === 0 ? store : other).counters.reserve(w, 1 + (i % 7), now);
          expect(r.count).toBeLessThanOrEqual(50);
          if (r.granted === 0) {
            refusals += 1;
            continue;
          }
          held += r.granted;
          if (i % 3 === 0) {
            await (i % 2 === 0 ? other : store).counters.release(w, 1, now);
            held -= 1;
          }
        }
        expect(held).toBeGreaterThanOrEqual(49);
        expect(await store.counters.peek("lease:turns", now)).toBe(held);
      } finally {
        await other.close();
      }
    });
  }

  it("keeps a sliding log: the window slides, it does not reset", async () => {
    const hour = 3_600_000;
    const t0 = 10 * hour;
    expect((await store.slidingWindows.hit("ip:1", t0, hour, 3)).allowed).toBe(true);
    expect((await store.slidingWindows.hit("ip:1", t0 + 20 * 60_000, hour, 3)).allowed).toBe(true);
    expect((await store.slidingWindows.hit("ip:1", t0 + 40 * 60_000, hour, 3)).allowed).toBe(true);
    const fourth = await store.slidingWindows.hit("ip:1", t0 + 50 * 60_000, hour, 3);
    expect(fourth).toEqual({ allowed: false, count: 3, retryAt: t0 + hour });
    // One minute after the first hit left the window there is room for exactly one more.
    expect((await store.slidingWindows.hit("ip:1", t0 + 61 * 60_000, hour, 3)).allowed).toBe(true);
    expect((await store.slidingWindows.hit("ip:1", t0 + 62 * 60_000, hour, 3)).allowed).toBe(false);
    expect((await store.slidingWindows.hit("ip:2", t0 + 62 * 60_000, hour, 3)).allowed).toBe(true);
  });

  it("sweeps the hits of every address that has left its window, and none that still counts", async () => {
    const hour = 3_600_000;
    const t0 = 1_000 * hour;
    // The file's store is shared: clear what earlier tests left before t0, so the count is ours.
    await store.slidingWindows.sweepBefore(t0 - 1);
    // 200 addresses that called once and never again: `hit` prunes only its own bucket.
    for (let i = 0; i < 200; i++) await store.slidingWindows.hit(`sweep-once:${i}`, t0, hour, 1);
    await store.slidingWindows.hit("sweep-recent", t0 + 2 * hour, hour, 1);
    expect(await store.slidingWindows.sweepBefore(t0 + hour)).toBe(200);
    expect(await store.slidingWindows.sweepBefore(t0 + hour)).toBe(0);
    // The recent hit still counts: its address stays refused inside its window.
    expect((await store.slidingWindows.hit("sweep-recent", t0 + 2 * hour + 60_000, hour, 1)).allowed).toBe(false);
  });

  it("subscribes an address once and tracks its welcome e-mail", async () => {
    expect(await store.newsletter.subscribe("a@example.com", "Ann", "2026-01-01T00:00:00.000Z")).toBe(true);
    expect(await store.newsletter.subscribe("a@example.com", "Other", "2026-01-02T00:00:00.000Z")).toBe(false);
    expect(await store.newsletter.get("a@example.com")).toMatchObject({ name: "Ann", welcomeSentAt: null, welcomeAttempts: 0 });
    await store.newsletter.recordWelcomeAttempt("a@example.com", null);
    expect((await store.newsletter.pendingWelcome(5)).map((s) => s.email)).toEqual(["a@example.com"]);
    expect(await store.newsletter.pendingWelcome(1)).toEqual([]);
    await store.newsletter.recordWelcomeAttempt("a@example.com", "2026-01-01T00:01:00.000Z");
    expect(await store.newsletter.get("a@example.com")).toMatchObject({ welcomeSentAt: "2026-01-01T00:01:00.000Z", welcomeAttempts: 2 });
    expect(await store.newsletter.pendingWelcome(5)).toEqual([]);
  });

  it("gives a welcome one unsubscribe link for all its attempts, keeps only the link's hash once the welcome is out, and forgets the subscriber by it", async () => {
    const fresh = (c: string) => ({ token: c.repeat(43), hash: hashUnsubscribeToken(c.repeat(43)) });
    await store.newsletter.subscribe("u@example.com", null, "2026-01-04T00:00:00.000Z");
    expect(await store.newsletter.unsubscribeToken("u@example.com", fresh("A"))).toBe("A".repeat(43));
    // A second attempt at the same welcome carries the first attempt's link.
    expect(await store.newsletter.unsubscribeToken("u@example.com", fresh("B"))).toBe("A".repeat(43));
    expect(await store.newsletter.removeByUnsubscribeHash(fresh("B").hash)).toBe(false);
    expect(await store.newsletter.unsubscribeToken("nobody@example.com", fresh("C"))).toBeNull();
    await store.newsletter.recordWelcomeAttempt("u@example.com", "2026-01-04T00:01:00.000Z");
    expect(await store.newsletter.unsubscribeToken("u@example.com", fresh("D"))).toBeNull();
    // The link's fields are the store's own, never part of a subscriber.
    expect(Object.keys((await store.newsletter.get("u@example.com")) ?? {}).sort()).toEqual(["email", "key", "name", "subscribedAt", "welcomeAttempts", "welcomeSentAt"]);
    const stored = await rawSubscriber(kind, url, "u@example.com");
    expect(stored).toContain(fresh("A").hash);
    expect(stored).not.toContain("A".repeat(43));
    expect(await store.newsletter.removeByUnsubscribeHash(fresh("A").hash)).toBe(true);
    expect(await store.newsletter.get("u@example.com")).toBeNull();
    expect(await store.newsletter.removeByUnsubscribeHash(fresh("A").hash)).toBe(false);
  });

  it("claims a welcome only below its attempt limit, and a give-up takes the count to the limit at once", async () => {
    const t = Date.UTC(2026, 0, 3);
    await store.newsletter.subscribe("b@example.com", null, "2026-01-03T00:00:00.000Z");
    expect(await store.newsletter.claimWelcome("b@example.com", "me", t, 60_000, 2)).toBe(true);
    await store.newsletter.recordWelcomeAttempt("b@example.com", null);
    expect(await store.newsletter.claimWelcome("b@example.com", "me", t, 60_000, 2)).toBe(true);
    await store.newsletter.recordWelcomeAttempt("b@example.com", null);
    // Two attempts made: no claim, by this claimant or any other, even with its claim lapsed.
    expect(await store.newsletter.claimWelcome("b@example.com", "me", t, 60_000, 2)).toBe(false);
    expect(await store.newsletter.claimWelcome("b@example.com", "other", t + 120_000, 60_000, 2)).toBe(false);
    await store.newsletter.subscribe("c@example.com", null, "2026-01-03T00:00:00.000Z");
    expect(await store.newsletter.claimWelcome("c@example.com", "me", t, 60_000, 5)).toBe(true);
    await store.newsletter.recordWelcomeAttempt("c@example.com", null, 5);
    expect(await store.newsletter.get("c@example.com")).toMatchObject({ welcomeSentAt: null, welcomeAttempts: 5 });
    expect(await store.newsletter.claimWelcome("c@example.com", "me", t, 60_000, 5)).toBe(false);
  });

  it("stores a row under a key other than its address, lists every row with its key, and moves a row to another key with its welcome state and link", async () => {
    const fresh = { token: "R".repeat(43), hash: hashUnsubscribeToken("R".repeat(43)) };
    expect(await store.newsletter.subscribe("bi1:k1:row", "sealed-name", "2026-01-05T00:00:00.000Z", "sealed-address")).toBe(true);
    expect(await store.newsletter.get("bi1:k1:row")).toMatchObject({ key: "bi1:k1:row", email: "sealed-address", name: "sealed-name" });
    await store.newsletter.recordWelcomeAttempt("bi1:k1:row", null);
    await store.newsletter.unsubscribeToken("bi1:k1:row", fresh);
    const all = await store.newsletter.listAll();
    expect(all.find((s) => s.key === "bi1:k1:row")).toMatchObject({ email: "sealed-address" });
    expect(all.find((s) => s.key === "a@example.com")).toMatchObject({ email: "a@example.com", name: "Ann" });
    await store.newsletter.rekey("bi1:k1:row", "bi1:k2:row", "resealed-address", "resealed-name");
    expect(await store.newsletter.get("bi1:k1:row")).toBeNull();
    expect(await store.newsletter.get("bi1:k2:row")).toMatchObject({ email: "resealed-address", name: "resealed-name", welcomeAttempts: 1, welcomeSentAt: null });
    // The link of the welcome still on its way works after the move.
    expect(await store.newsletter.unsubscribeToken("bi1:k2:row", { token: "S".repeat(43), hash: hashUnsubscribeToken("S".repeat(43)) })).toBe(fresh.token);
    // In place: the same key, the values sealed anew.
    await store.newsletter.rekey("bi1:k2:row", "bi1:k2:row", "again-address", null);
    expect(await store.newsletter.get("bi1:k2:row")).toMatchObject({ email: "again-address", name: null, welcomeAttempts: 1 });
    // One address under two keys (signed up again during a key change): the move keeps the row
    // already under the new key and drops the old one.
    await store.newsletter.subscribe("bi1:k1:twice", null, "2026-01-06T00:00:00.000Z", "old");
    await store.newsletter.subscribe("bi1:k2:twice", null, "2026-01-07T00:00:00.000Z", "new");
    await store.newsletter.rekey("bi1:k1:twice", "bi1:k2:twice", "moved", null);
    expect(await store.newsletter.get("bi1:k1:twice")).toBeNull();
    expect(await store.newsletter.get("bi1:k2:twice")).toMatchObject({ email: "new", subscribedAt: "2026-01-07T00:00:00.000Z" });
    expect(await store.newsletter.removeByUnsubscribeHash(fresh.hash)).toBe(true);
    expect(await store.newsletter.get("bi1:k2:row")).toBeNull();
  });

  it("answers the readiness ping", async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });
});

describe.each<StoreKind>(["sqlite", "mongodb"])("keys stored before usage ids, on %s", (kind) => {
  it("count against their own id once the store is opened by this version", async () => {
    const url = freshStoreUrl(kind, "access-legacy");
    const old = { id: "legacy-1", hash: "9".repeat(64), prefix: "svc_free_abcd", tier: "free", name: "old", email: null, createdAt: "2026-01-01T00:00:00.000Z", deactivatedAt: null };
    if (kind === "sqlite") {
      const db = openSqlite(url.slice("sqlite:".length));
      applyMigrations(db, accessMigrations.filter((m) => m.version === 1));
      db.prepare("INSERT INTO api_keys (id, hash, prefix, tier, name, email, active, created_at, deactivated_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?, NULL)").run(
        old.id,
        old.hash,
        old.prefix,
        old.tier,
        old.name,
        old.email,
        old.createdAt,
      );
      db.close();
    } else {
      const { client, db } = await openMongo(url);
      await db.collection("api_keys").insertOne({ _id: old.id as unknown as never, ...old, active: true });
      await client.close();
    }
    const store = await openStore(url);
    try {
      expect(await store.apiKeys.findByHash(old.hash)).toMatchObject({ id: "legacy-1", usageId: "legacy-1", active: true });
      expect(await store.apiKeys.findActiveByUsageId("legacy-1")).toMatchObject({ id: "legacy-1" });
    } finally {
      await store.close();
    }
  });
});

/**
 * MongoDB has no multi-document transaction here, so rotate is two writes: what a process that
 * died between them (or a rotation that lost and died before taking its key back) leaves must
 * never keep a lineage, and its webhooks, alive.
 */
describe("a rotation's unfinished successor on MongoDB", () => {
  let store: Store;
  let url: string;
  beforeAll(async () => {
    url = freshStoreUrl("mongodb", "access-unfinished");
    store = await openStore(url);
  });
  afterAll(async () => {
    await store.close();
  });

  /** Writes what a rotation that died between its two writes leaves: an active successor. */
  async function unfinishedSuccessor(id: string, hash: string, usageId: string, rotatedFrom: string, createdAt = "2026-03-06T00:00:00.000Z"): Promise<void> {
    const { client, db } = await openMongo(url);
    try {
      const orphan = key(id, hash, { usageId, createdAt });
      await db.collection<ApiKeyRecord & { _id: string; rotatedFrom: string }>("api_keys").insertOne({ _id: orphan.id, ...orphan, rotatedFrom });
    } finally {
      await client.close();
    }
  }

  it("ends a rotation's unfinished successor when the caller rotates again, so revoking the new key ends the lineage", async () => {
    await store.apiKeys.create(key("k20", "a1".repeat(32)));
    await unfinishedSuccessor("k21", "a2".repeat(32), "k20", "a1".repeat(32));
    // The caller got no answer and rotates again with its old key; then revokes the new one.
    expect(await store.apiKeys.rotate("a1".repeat(32), key("k22", "a3".repeat(32), { usageId: "k20" }), "2026-03-06T01:00:00.000Z")).toBe(true);
    expect(await store.apiKeys.findActiveByUsageId("k20")).toMatchObject({ id: "k22" });
    expect(await store.apiKeys.findById("k21")).toMatchObject({ active: false });
    expect(await store.apiKeys.deactivate("a3".repeat(32), "2026-03-06T02:00:00.000Z")).toBe(true);
    expect(await store.apiKeys.findActiveByUsageId("k20")).toBeNull();
  });

  it("never counts a successor its predecessor does not name, and ends it at the next start", async () => {
    // A rotation that lost to another and died before taking its key back, or whose clean-up
    // of an earlier unfinished successor never ran: the predecessor names another successor.
    await store.apiKeys.create(key("k23", "b1".repeat(32)));
    expect(await store.apiKeys.rotate("b1".repeat(32), key("k24", "b2".repeat(32), { usageId: "k23" }), "2026-03-07T00:00:00.000Z")).toBe(true);
    await unfinishedSuccessor("k25", "b3".repeat(32), "k23", "b1".repeat(32));
    // And one whose predecessor was revoked, not rotated.
    await store.apiKeys.create(key("k26", "b4".repeat(32)));
    expect(await store.apiKeys.deactivate("b4".repeat(32), "2026-03-07T00:00:00.000Z")).toBe(true);
    await unfinishedSuccessor("k27", "b5".repeat(32), "k26", "b4".repeat(32));
    expect(await store.apiKeys.deactivate("b2".repeat(32), "2026-03-07T01:00:00.000Z")).toBe(true);
    expect(await store.apiKeys.findActiveByUsageId("k23")).toBeNull();
    expect(await store.apiKeys.findActiveByUsageId("k26")).toBeNull();
    const reopened = await openStore(url);
    try {
      expect(await reopened.apiKeys.findById("k25")).toMatchObject({ active: false, deactivatedAt: "2026-03-07T00:00:00.000Z" });
      expect(await reopened.apiKeys.findById("k27")).toMatchObject({ active: false, deactivatedAt: "2026-03-07T00:00:00.000Z" });
    } finally {
      await reopened.close();
    }
  });

  it("keeps keys rotated before predecessors named their successors, and ends the unfinished ones among them at start", async () => {
    // As a store written by the version before: predecessors deactivated without `replacedBy`.
    const { client, db } = await openMongo(url);
    try {
      const keys = db.collection<ApiKeyRecord & { _id: string; rotatedFrom?: string }>("api_keys");
      const old = (id: string, hash: string, deactivatedAt: string) => ({ _id: id, ...key(id, hash), active: false, deactivatedAt });
      await keys.insertMany([
        old("k30", "c1".repeat(32), "2026-03-08T00:00:00.000Z"),
        { _id: "k31", ...key("k31", "c2".repeat(32), { usageId: "k30", createdAt: "2026-03-08T00:00:00.000Z" }), rotatedFrom: "c1".repeat(32) },
        { _id: "k32", ...key("k32", "c3".repeat(32), { usageId: "k30", createdAt: "2026-03-07T23:59:59.000Z" }), rotatedFrom: "c1".repeat(32) },
      ]);
    } finally {
      await client.close();
    }
    const reopened = await openStore(url);
    try {
      expect(await reopened.apiKeys.findActiveByUsageId("k30")).toMatchObject({ id: "k31" });
      expect(await reopened.apiKeys.findById("k32")).toMatchObject({ active: false });
      expect(await reopened.apiKeys.deactivate("c2".repeat(32), "2026-03-08T01:00:00.000Z")).toBe(true);
      expect(await reopened.apiKeys.findActiveByUsageId("k30")).toBeNull();
    } finally {
      await reopened.close();
    }
  });
});

/**
 * MongoDB moves a subscriber to another key (re-sealing under a new key) as a copy and a delete:
 * a move cut off between the two must not keep a subscriber who left by the link.
 */
describe("a subscriber's move to another key on MongoDB", () => {
  let store: Store;
  let url: string;
  beforeAll(async () => {
    url = freshStoreUrl("mongodb", "access-rekey");
    store = await openStore(url);
  });
  afterAll(async () => {
    await store.close();
  });

  it("unsubscribes both copies that a move cut off between its copy and its delete leaves", async () => {
    const link = { token: "T".repeat(43), hash: hashUnsubscribeToken("T".repeat(43)) };
    await store.newsletter.subscribe("bi1:k1:cut", null, "2026-02-01T00:00:00.000Z", "sealed-old");
    expect(await store.newsletter.unsubscribeToken("bi1:k1:cut", link)).toBe(link.token);
    const { client, db } = await openMongo(url);
    try {
      const subs = db.collection<{ _id: string }>("newsletter_subscribers");
      const doc = await subs.findOne({ _id: "bi1:k1:cut" });
      await subs.insertOne({ ...doc, _id: "bi1:k2:cut" });
    } finally {
      await client.close();
    }
    expect(await store.newsletter.removeByUnsubscribeHash(link.hash)).toBe(true);
    expect(await store.newsletter.get("bi1:k1:cut")).toBeNull();
    expect(await store.newsletter.get("bi1:k2:cut")).toBeNull();
  });
});
