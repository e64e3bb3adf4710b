import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/store.js";
import type { DeliveryRecord } from "../../src/domain/webhooks/delivery-state.js";
import { createSubscription, type WebhookSubscription } from "../../src/domain/webhooks/subscription.js";
import { freshStoreUrl, type StoreKind } from "../support/service.js";
import { openMongo } from "../../src/store/mongo/database.js";
import { openSqlite } from "../../src/store/sqlite/database.js";

const T0 = Date.UTC(2026, 10, 1);

function sub(id: string, owner: string, events: WebhookSubscription["events"], at = T0): WebhookSubscription {
  return createSubscription({ id, ownerKeyId: owner, url: `https://hooks.example.com/${id}`, events, secret: `whsec_${"A".repeat(32)}`, now: at });
}

function record(i: number): DeliveryRecord {
  return { deliveryId: `msg_${i}`, event: "verdict.new", attempt: 1, statusCode: 200, error: null, durationMs: 12, at: T0 + i * 1000, next: "delivered" };
}

describe.each<StoreKind>(["sqlite", "mongodb"])("webhook repository on %s", (kind) => {
  let store: Store;
  let url: string;
  beforeAll(async () => {
    url = freshStoreUrl(kind, "webhooks");
    store = await openStore(url);
  });
  afterAll(async () => {
    await store.close();
  });

  it("stores at most the limit per owner, and lists each owner's own, oldest first", async () => {
    for (let i = 0; i < 5; i++) expect(await store.webhooks.insertWithinLimit(sub(`a${i}`, "key-a", ["verdict.new"], T0 + i), 5)).toBe(true);
    expect(await store.webhooks.insertWithinLimit(sub("a5", "key-a", ["verdict.new"], T0 + 5), 5)).toBe(false);
    expect(await store.webhooks.insertWithinLimit(sub("b0", "key-b", ["regime.change", "macro.alert"]), 5)).toBe(true);
    expect((await store.webhooks.listByOwner("key-a")).map((s) => s.id)).toEqual(["a0", "a1", "a2", "a3", "a4"]);
    expect(await store.webhooks.listByOwner("key-b")).toEqual([sub("b0", "key-b", ["regime.change", "macro.alert"])]);
    expect(await store.webhooks.get("a5")).toBeNull();
  });

  it("finds the active subscriptions of an event type, and follows saves of the actor", async () => {
    expect((await store.webhooks.listActiveFor("macro.alert")).subscriptions.map((s) => s.id)).toEqual(["b0"]);
    expect((await store.webhooks.listActiveFor("verdict.new")).subscriptions.map((s) => s.id)).toEqual(["a0", "a1", "a2", "a3", "a4"]);
    const paused = { ...sub("a1", "key-a", ["verdict.new"], T0 + 1), isActive: false, disabledReason: "consecutive_failures" as const, failuresSinceSuccess: 10, lastTriggeredAt: T0 + 99 };
    await store.webhooks.save(paused);
    expect(await store.webhooks.get("a1")).toEqual(paused);
    expect((await store.webhooks.listActiveFor("verdict.new")).subscriptions.map((s) => s.id)).toEqual(["a0", "a2", "a3", "a4"]);
    expect((await store.webhooks.listActive()).subscriptions.map((s) => s.id).sort()).toEqual(["a0", "a2", "a3", "a4", "b0"]);
    // Every subscription, paused or disabled too, oldest first (the start-up's sealing check).
    const all = await store.webhooks.listAll();
    expect(all.subscriptions.map((s) => s.id)).toEqual(["a0", "b0", "a1", "a2", "a3", "a4"]);
    expect(all.subscriptions.find((s) => s.id === "a1")).toEqual(paused);
  });

  it("leaves an unreadable subscription row out of the fan-out and start-up lists by id, and lists the others", async () => {
    for (const id of ["u0", "u1", "u2"]) expect(await store.webhooks.insertWithinLimit(sub(id, `key-${id}`, ["council.new"], T0 + 10), 5)).toBe(true);
    // A row of a shape this build does not read (a hand edit, an older build's bug): no URL.
    if (kind === "sqlite") {
      const db = openSqlite(url.slice("sqlite:".length));
      try {
        expect(db.prepare("UPDATE webhook_subscriptions SET doc = json_remove(doc, '$.url') WHERE id = 'u1'").run().changes).toBe(1);
      } finally {
        db.close();
      }
    } else {
      const { client, db } = await openMongo(url);
      try {
        expect((await db.collection<{ _id: string }>("webhook_subscriptions").updateOne({ _id: "u1" }, { $unset: { "doc.url": "" } })).modifiedCount).toBe(1);
      } finally {
        await client.close();
      }
    }
    const fanOut = await store.webhooks.listActiveFor("council.new");
    expect(fanOut.subscriptions.map((s) => s.id)).toEqual(["u0", "u2"]);
    expect(fanOut.unreadable).toEqual(["u1"]);
    const active = await store.webhooks.listActive();
    expect(active.subscriptions.map((s) => s.id)).toEqual(expect.arrayContaining(["u0", "u2"]));
    expect(active.unreadable).toEqual(["u1"]);
    expect((await store.webhooks.listAll()).unreadable).toEqual(["u1"]);
  });

  it("keeps a subscription's log in write order when its actor moves to another process, clocks notwithstanding", async () => {
    // Two connections stand for two replicas; the second's clock is a second behind.
    const other = await openStore(url);
    try {
      const at = (i: number, t: number): DeliveryRecord => ({ ...record(i), at: t });
      await store.webhooks.appendDeliveries("a3", [at(1, T0 + 5000), at(2, T0 + 5000)], 10);
      await other.webhooks.appendDeliveries("a3", [at(3, T0 + 4000)], 10);
      await store.webhooks.appendDeliveries("a3", [at(4, T0 + 5000)], 10);
      expect((await store.webhooks.deliveries("a3", 10)).map((r) => r.deliveryId)).toEqual(["msg_4", "msg_3", "msg_2", "msg_1"]);
    } finally {
      await other.close();
    }
  });

  it("keeps a bounded delivery log, newest first", async () => {
    await store.webhooks.appendDeliveries("a0", [1, 2, 3].map(record), 4);
    await store.webhooks.appendDeliveries("a0", [4, 5, 6].map(record), 4);
    await store.webhooks.appendDeliveries("a2", [record(7)], 4);
    expect((await store.webhooks.deliveries("a0", 50)).map((r) => r.deliveryId)).toEqual(["msg_6", "msg_5", "msg_4", "msg_3"]);
    expect(await store.webhooks.deliveries("a0", 2)).toEqual([record(6), record(5)]);
    expect(await store.webhooks.deliveries("a2", 50)).toEqual([record(7)]);
  });

  it("deletes a subscription with its log; a later save does not bring it back", async () => {
    expect(await store.webhooks.delete("a0")).toBe(true);
    expect(await store.webhooks.delete("a0")).toBe(false);
    expect(await store.webhooks.get("a0")).toBeNull();
    expect(await store.webhooks.deliveries("a0", 50)).toEqual([]);
    await store.webhooks.save(sub("a0", "key-a", ["verdict.new"]));
    expect(await store.webhooks.get("a0")).toBeNull();
    // A freed slot can be taken again.
    expect(await store.webhooks.insertWithinLimit(sub("a6", "key-a", ["council.new"], T0 + 6), 5)).toBe(true);
    expect(await store.webhooks.insertWithinLimit(sub("a7", "key-a", ["council.new"], T0 + 7), 5)).toBe(false);
  });

  if (kind === "mongodb") {
    // MongoDB only: SQLite writes slot and subscription in one transaction, so it has no slots.
    it("reclaims a slot a crash left without its subscription, but not one that may be a registration in flight", async () => {
      const { client, db } = await openMongo(url);
      try {
        const slots = db.collection<{ _id: string; s: string; t: number }>("webhook_slots");
        // A registration that took slot 0 and died before writing its subscription, an hour ago.
        await slots.insertOne({ _id: "key-crash#0", s: "never-written", t: T0 - 3_600_000 });
        expect(await store.webhooks.insertWithinLimit(sub("c0", "key-crash", ["verdict.new"], T0), 1)).toBe(true);
        expect((await store.webhooks.listByOwner("key-crash")).map((w) => w.id)).toEqual(["c0"]);
        // A slot taken a moment ago whose subscription is not written yet: another replica's, mid-registration.
        await slots.insertOne({ _id: "key-young#0", s: "in-flight", t: T0 - 1_000 });
        expect(await store.webhooks.insertWithinLimit(sub("y0", "key-young", ["verdict.new"], T0), 1)).toBe(false);
      } finally {
        await client.close();
      }
    });
  }

  it("enforces the limit in the store when two processes register one key at once (issue 17)", async () => {
    const url = freshStoreUrl(kind, "webhookrace");
    const first = await openStore(url);
    const second = await openStore(url);
    try {
      const tries = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? first : second).webhooks.insertWithinLimit(sub(`r${i}`, "key-race", ["verdict.new"], T0 + i), 5));
      const taken = (await Promise.all(tries)).filter(Boolean).length;
      expect(taken).toBe(5);
      expect(await first.webhooks.listByOwner("key-race")).toHaveLength(5);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe("webhook slots on MongoDB for subscriptions written before slots existed", () => {
  it("gives each one a slot at start, so two replicas racing for a key's last place cannot both take it", async () => {
    const url = freshStoreUrl("mongodb", "webhook-slots");
    // Four subscriptions of one key as a build before slots wrote them: documents, no slots.
    const first = await openStore(url);
    await first.close();
    const { client, db } = await openMongo(url);
    try {
      const subs = db.collection<{ _id: string; o: string; a: boolean; e: string[]; c: number; doc: WebhookSubscription }>("webhook_subscriptions");
      for (let i = 0; i < 4; i++) {
        const s = sub(`old${i}`, "key-old", ["verdict.new"], T0 + i);
        await subs.insertOne({ _id: s.id, o: s.ownerKeyId, a: true, e: [...s.events], c: s.createdAt, doc: s });
      }
      expect(await db.collection("webhook_slots").countDocuments({})).toBe(0);
    } finally {
      await client.close();
    }
    // Two replicas start on the store and register for that key at once.
    const [a, b] = await Promise.all([openStore(url), openStore(url)]);
    try {
      const won = await Promise.all([
        a.webhooks.insertWithinLimit(sub("new-a", "key-old", ["verdict.new"], T0 + 10), 5),
        b.webhooks.insertWithinLimit(sub("new-b", "key-old", ["verdict.new"], T0 + 10), 5),
      ]);
      expect(won.filter(Boolean)).toHaveLength(1);
      expect(await a.webhooks.listByOwner("key-old")).toHaveLength(5);
      const { client: check, db: after } = await openMongo(url);
      try {
        // One slot per subscription, though both replicas filled them in at start.
        const slots = await after.collection<{ _id: string; s: string }>("webhook_slots").find({}).toArray();
        expect(slots.map((x) => x.s).sort()).toEqual(["old0", "old1", "old2", "old3", won[0] ? "new-a" : "new-b"].sort());
      } finally {
        await check.close();
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

