import type { Agent } from "node:https";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { WebhookSubscriptionActor } from "../../../src/actors/webhook-subscription-actor.js";
import { createSubscription } from "../../../src/domain/webhooks/subscription.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { openSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import type { WebhookRepository } from "../../../src/store/ports/webhooks.js";
import type { Store } from "../../../src/store/store.js";
import { captureLogger } from "../../support/capture-logger.js";
import { createSecretSealer } from "../../../src/sealing/secret-sealer.js";
import { createDeliveryAgent } from "../../../src/webhook-delivery/delivery-agent.js";
import { createHttpDeliverer } from "../../../src/webhook-delivery/http-deliverer.js";
import { startHttpsReceiver, type HttpsReceiver } from "./support/receiver.js";
import { createTestPki } from "./support/tls.js";

/**
 * The routes and the fan-out read a subscription's store copy; its actor keeps the schedule. A
 * change a caller asks for (PATCH is_active, rotate-secret) must reach both or neither: a 200
 * over a store copy that did not take the change left a re-enabled subscription without events
 * and the test endpoint signing with the old secret.
 */
describe("a webhook change a caller asked for, when the store's copy cannot be written", () => {
  let store: Store;
  let host: LocalActorHost;
  let failNextSave = false;
  let receiverFails = false;
  const wall = new ManualClock(Date.UTC(2026, 0, 1));
  // A real HTTPS receiver, answering 500 while `receiverFails`, 200 otherwise.
  const pki = createTestPki();
  let receiver: HttpsReceiver;
  let agent: Agent;
  beforeAll(async () => {
    receiver = await startHttpsReceiver(pki, () => ({ status: receiverFails ? 500 : 200 }));
    agent = createDeliveryAgent({ allowPrivateTargets: true, ca: pki.ca });
  });
  afterAll(async () => {
    agent.destroy();
    await receiver.stop();
  });
  const ID = "wh_projection";
  const SECRET = `whsec_${"A".repeat(32)}`;
  // Made once the receiver listens: its URL carries the port.
  const subscription = () => createSubscription({ id: ID, ownerKeyId: "k1", url: receiver.url(), events: ["verdict.new"], secret: SECRET, now: Date.UTC(2026, 0, 1) });
  const actor = () => host.proxy(WebhookSubscriptionActor, ID);

  beforeEach(async () => {
    failNextSave = false;
    receiverFails = false;
    store = openSqliteStore(":memory:");
    const inner = store.webhooks;
    const repo: WebhookRepository = {
      insertWithinLimit: (s, limit) => inner.insertWithinLimit(s, limit),
      get: (id) => inner.get(id),
      listByOwner: (owner) => inner.listByOwner(owner),
      listActiveFor: (event) => inner.listActiveFor(event),
      listActive: () => inner.listActive(),
      listAll: () => inner.listAll(),
      save: async (s) => {
        if (failNextSave) {
          failNextSave = false;
          throw new Error("MongoServerError: not primary");
        }
        return inner.save(s);
      },
      delete: (id) => inner.delete(id),
      appendDeliveries: (id, records, keep) => inner.appendDeliveries(id, records, keep),
      deliveries: (id, limit) => inner.deliveries(id, limit),
    };
    const deliver = createHttpDeliverer({ agent, timeoutMs: 3_000 });
    host = new LocalActorHost({ store: store.actorState, clock: new ManualClock(Date.UTC(2025, 0, 1)), wallClock: wall, logger: captureLogger().logger, pollIntervalMs: 0 });
    host.register(WebhookSubscriptionActor, (ctx) => new WebhookSubscriptionActor(ctx, { repo, deliver, ownerActive: async () => true, wall, sealer: createSecretSealer([]), onUnsealFailure: () => expect.unreachable("nothing is sealed here"), noticeOwner: async () => "no_address" }));
    await host.start();
    await store.webhooks.insertWithinLimit(subscription(), 5);
  });

  afterEach(async () => {
    await host.shutdown();
    await store.close();
  });

  it("PATCH is_active fails instead of answering for a change the fan-out never sees; the retry takes effect everywhere", async () => {
    await actor().setActive(false);
    expect(await store.webhooks.listActiveFor("verdict.new")).toEqual({ subscriptions: [], unreadable: [] });

    failNextSave = true;
    await expect(actor().setActive(true)).rejects.toThrow(/not primary/);
    // Neither copy changed: the fan-out and the actor both still see a paused subscription.
    expect((await store.webhooks.get(ID))?.isActive).toBe(false);
    expect(await actor().accept({ id: "evt-1", event: "verdict.new", timestamp: "2026-01-01T00:00:00.000Z", data: {} })).toEqual({ accepted: false, reason: "not_subscribed" });

    expect((await actor().setActive(true))?.isActive).toBe(true);
    expect((await store.webhooks.listActiveFor("verdict.new")).subscriptions.map((s) => s.id)).toEqual([ID]);
  });

  it("rotate-secret fails instead of handing out a secret the store (and so /v1/webhooks/test) does not sign with", async () => {
    failNextSave = true;
    await expect(actor().rotateSecret()).rejects.toThrow(/not primary/);
    const unchanged = await store.webhooks.get(ID);
    expect(unchanged?.secret).toBe(SECRET);
    expect(unchanged?.previousSecrets).toEqual([]);

    const rotated = await actor().rotateSecret();
    expect(rotated?.secret).not.toBe(SECRET);
    const stored = await store.webhooks.get(ID);
    expect(stored?.secret).toBe(rotated?.secret);
    expect(stored?.previousSecrets.map((p) => p.secret)).toEqual([SECRET]);
  });

  it("a repeated PATCH mends the store copy a delivery turn could not write", async () => {
    receiverFails = true;
    await actor().accept({ id: "evt-1", event: "verdict.new", timestamp: "2026-01-01T00:00:00.000Z", data: {} });
    await host.runDue();
    expect((await store.webhooks.get(ID))?.failuresSinceSuccess).toBe(1);

    // The retry succeeds, but its projection write fails: the turn keeps what it sent.
    receiverFails = false;
    failNextSave = true;
    wall.advance(5_000);
    await host.runDue();
    expect(await actor().pendingCount()).toBe(0);
    expect((await store.webhooks.get(ID))?.failuresSinceSuccess).toBe(1);

    // PATCH {is_active: true} on an active subscription changes nothing but writes the copy.
    expect((await actor().setActive(true))?.failuresSinceSuccess).toBe(0);
    expect((await store.webhooks.get(ID))?.failuresSinceSuccess).toBe(0);
  });
});
