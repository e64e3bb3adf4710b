import type { Agent } from "node:https";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebhookSubscriptionActor } from "../../../src/actors/webhook-subscription-actor.js";
import { createSubscription } from "../../../src/domain/webhooks/subscription.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { openSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import type { ActorStateStore } from "../../../src/store/ports/actor-state.js";
import type { Store } from "../../../src/store/store.js";
import { captureLogger } from "../../support/capture-logger.js";
import { createSecretSealer } from "../../../src/sealing/secret-sealer.js";
import { createDeliveryAgent } from "../../../src/webhook-delivery/delivery-agent.js";
import { createHttpDeliverer } from "../../../src/webhook-delivery/http-deliverer.js";
import { startHttpsReceiver, type HttpsReceiver } from "./support/receiver.js";
import { createTestPki } from "./support/tls.js";

/**
 * A delivery turn that sent its attempt but could not commit (the store busy, the actor moved)
 * rolls back to "pending, due now". Its one-shot reminder must still come back, or the retry
 * would wait for the subscription's next event.
 */
describe("a webhook delivery turn whose commit fails", () => {
  let store: Store;
  let host: LocalActorHost;
  let failNextDeliveryCommit = false;
  let receiver: HttpsReceiver;
  let agent: Agent;
  const wall = new ManualClock(Date.UTC(2026, 0, 1));
  /** The delivery ids the receiver was sent, in order. */
  const sent = (): string[] => receiver.received.map((r) => String(r.headers["x-service-delivery"] ?? ""));

  beforeEach(async () => {
    store = openSqliteStore(":memory:");
    const inner = store.actorState;
    const failing: ActorStateStore = {
      loadState: (actor) => inner.loadState(actor),
      loadReminders: () => inner.loadReminders(),
      commit: async (change) => {
        if (failNextDeliveryCommit && change.actor.type === WebhookSubscriptionActor.actorType) {
          failNextDeliveryCommit = false;
          throw new Error("SQLITE_BUSY: database is locked");
        }
        return inner.commit(change);
      },
    };
    const market = new ManualClock(Date.UTC(2025, 0, 1));
    host = new LocalActorHost({ store: failing, clock: market, wallClock: wall, logger: captureLogger().logger, pollIntervalMs: 0 });
    // A real HTTPS receiver that answers 500 to the first attempt and 200 afterwards.
    const pki = createTestPki();
    receiver = await startHttpsReceiver(pki, (_request, index) => ({ status: index === 0 ? 500 : 200 }));
    agent = createDeliveryAgent({ allowPrivateTargets: true, ca: pki.ca });
    const deliver = createHttpDeliverer({ agent, timeoutMs: 3_000 });
    host.register(WebhookSubscriptionActor, (ctx) => new WebhookSubscriptionActor(ctx, { repo: store.webhooks, deliver, ownerActive: async () => true, wall, sealer: createSecretSealer([]), onUnsealFailure: () => expect.unreachable("nothing is sealed here"), noticeOwner: async () => "no_address" }));
    await host.start();
  });

  afterEach(async () => {
    await host.shutdown();
    await store.close();
    agent.destroy();
    await receiver.stop();
  });

  it("tries the delivery again 30 s later and settles it, with one delivery id", async () => {
    const subscription = createSubscription({ id: "wh_failed_turn", ownerKeyId: "k1", url: receiver.url(), events: ["verdict.new"], secret: `whsec_${"A".repeat(32)}`, now: wall.now() });
    await store.webhooks.insertWithinLimit(subscription, 5);
    const actor = host.proxy(WebhookSubscriptionActor, subscription.id);
    await actor.accept({ id: "evt-1", event: "verdict.new", timestamp: "2025-01-01T00:00:00.000Z", data: { ruling: "HOLD" } });

    failNextDeliveryCommit = true;
    await host.runDue();
    expect(sent()).toHaveLength(1);
    expect(await actor.pendingCount()).toBe(1);

    wall.advance(29_000);
    await host.runDue();
    expect(sent()).toHaveLength(1);
    wall.advance(1_000);
    await host.runDue();
    expect(sent()).toHaveLength(2);
    expect(sent()[1]).toBe(sent()[0]);
    expect(sent()[0]).not.toBe("");
    expect(await actor.pendingCount()).toBe(0);
    expect((await store.webhooks.get(subscription.id))?.failuresSinceSuccess).toBe(0);
  });
});
