import type { Agent } from "node:https";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { WebhookSubscriptionActor } from "../../../src/actors/webhook-subscription-actor.js";
import { createSubscription } from "../../../src/domain/webhooks/subscription.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { openSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../../src/store/store.js";
import { createDeliveryAgent } from "../../../src/webhook-delivery/delivery-agent.js";
import { createHttpDeliverer } from "../../../src/webhook-delivery/http-deliverer.js";
import { captureLogger } from "../../support/capture-logger.js";
import { startHttpsReceiver, type HttpsReceiver } from "./support/receiver.js";
import { createTestPki, type TestPki } from "./support/tls.js";

/**
 * A delivery turn sends every due attempt at once. When one of them is answered 410 the
 * subscription is disabled, but the others were already sent and answered: the delivery log and
 * the subscription must say what those answers were, not that the attempts were "cancelled"
 * before being made. (A receiver that got and acknowledged an event must not read, in
 * GET /v1/webhooks/{id}/deliveries, that it never got it.)
 */
describe("a 410 in a turn that sent several attempts", () => {
  let pki: TestPki;
  let receiver: HttpsReceiver;
  let agent: Agent;
  let store: Store;
  let host: LocalActorHost;
  const wall = new ManualClock(Date.now());

  beforeAll(async () => {
    pki = createTestPki();
    receiver = await startHttpsReceiver(pki);
    agent = createDeliveryAgent({ allowPrivateTargets: true, ca: pki.ca });
  });

  afterAll(async () => {
    agent.destroy();
    await receiver.stop();
  });

  beforeEach(async () => {
    store = openSqliteStore(":memory:");
    host = new LocalActorHost({ store: store.actorState, clock: new ManualClock(Date.UTC(2025, 0, 1)), wallClock: wall, logger: captureLogger().logger, pollIntervalMs: 0 });
    const deliver = createHttpDeliverer({ agent, timeoutMs: 5_000 });
    host.register(WebhookSubscriptionActor, (ctx) => new WebhookSubscriptionActor(ctx, { repo: store.webhooks, deliver, ownerActive: async () => true, wall }));
    await host.start();
  });

  afterEach(async () => {
    await host.shutdown();
    await store.close();
  });

  it("records the attempts it sent beside the 410 with their real answers", async () => {
    receiver.respond = (req) => ({ status: req.body.includes("\"gone\"") ? 410 : 200 });
    const subscription = createSubscription({ id: "wh_gone_batch", ownerKeyId: "k1", url: receiver.url("/batch"), events: ["ghost.signal"], secret: `whsec_${"A".repeat(32)}`, now: wall.now() });
    await store.webhooks.insertWithinLimit(subscription, 5);
    const actor = host.proxy(WebhookSubscriptionActor, subscription.id);
    const at = "2025-01-01T00:00:00.000Z";
    await actor.accept({ id: "evt-gone", event: "ghost.signal", timestamp: at, data: { reason: "gone" } });
    await actor.accept({ id: "evt-ok", event: "ghost.signal", timestamp: "2025-01-01T00:00:00.001Z", data: { reason: "fine" } });

    await host.runDue();

    expect(receiver.received.filter((r) => r.path === "/batch")).toHaveLength(2);
    const log = await store.webhooks.deliveries(subscription.id, 50);
    // Both attempts were made (attempt 1) and each is logged with the status it got.
    expect(log.map((r) => [r.attempt, r.statusCode, r.error]).sort()).toEqual([
      [1, 200, null],
      [1, 410, "http_status"],
    ]);
    const stored = await store.webhooks.get(subscription.id);
    expect(stored).toMatchObject({ isActive: false, disabledReason: "gone" });
    expect(await actor.pendingCount()).toBe(0);
  });
});
