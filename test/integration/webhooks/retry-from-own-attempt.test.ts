import type { Agent } from "node:https";
import { setImmediate as nextMacrotask } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { WebhookSubscriptionActor } from "../../../src/actors/webhook-subscription-actor.js";
import { createSubscription } from "../../../src/domain/webhooks/subscription.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { openSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../../src/store/store.js";
import { createDeliveryAgent } from "../../../src/webhook-delivery/delivery-agent.js";
import { createHttpDeliverer, type Deliver } from "../../../src/webhook-delivery/http-deliverer.js";
import { captureLogger } from "../../support/capture-logger.js";
import { startHttpsReceiver, type HttpsReceiver } from "./support/receiver.js";
import { createTestPki, type TestPki } from "./support/tls.js";

/**
 * A turn sends every due attempt at once and waits for all of them. A receiver that answers one
 * event with a fast 500 while another attempt of the same turn takes 10 s must see its retry 5 s
 * after its own answer (SPEC's schedule), and the delivery log must say when each attempt was
 * sent (the instant its webhook-timestamp header carries), not when the slowest one ended.
 */
describe("a failed attempt sent beside a slow one", () => {
  let pki: TestPki;
  let receiver: HttpsReceiver;
  let agent: Agent;
  let store: Store;
  let host: LocalActorHost;
  const T0 = Date.UTC(2026, 0, 1);
  const wall = new ManualClock(T0);
  let fastSettled: Promise<void>;
  let releaseSlow: () => void;

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
    wall.set(T0);
    store = openSqliteStore(":memory:");
    host = new LocalActorHost({ store: store.actorState, clock: new ManualClock(Date.UTC(2025, 0, 1)), wallClock: wall, logger: captureLogger().logger, pollIntervalMs: 0 });
    const http = createHttpDeliverer({ agent, timeoutMs: 5_000 });
    let fastDone: () => void = () => undefined;
    fastSettled = new Promise((resolve) => (fastDone = resolve));
    const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
    // The real deliverer against the real receiver; the slow event's answer is held back until
    // the test has moved the wall clock, so "slow" means 10 s of service time, deterministically.
    const deliver: Deliver = async (request) => {
      const outcome = await http(request);
      if (request.body.includes("\"slow\"")) await slowGate;
      else fastDone();
      return outcome;
    };
    host.register(WebhookSubscriptionActor, (ctx) => new WebhookSubscriptionActor(ctx, { repo: store.webhooks, deliver, ownerActive: async () => true, wall }));
    await host.start();
  });

  afterEach(async () => {
    releaseSlow();
    await host.shutdown();
    await store.close();
  });

  it("retries the fast failure 5 s after its own answer and logs when each attempt was sent", async () => {
    receiver.respond = (req) => ({ status: req.body.includes("\"slow\"") ? 200 : 500 });
    const subscription = createSubscription({ id: "wh_own_timing", ownerKeyId: "k1", url: receiver.url("/timing"), events: ["ghost.signal"], secret: `whsec_${"A".repeat(32)}`, now: wall.now() });
    await store.webhooks.insertWithinLimit(subscription, 5);
    const actor = host.proxy(WebhookSubscriptionActor, subscription.id);
    await actor.accept({ id: "evt-fast", event: "ghost.signal", timestamp: "2026-01-01T00:00:00.000Z", data: { reason: "fast" } });
    await actor.accept({ id: "evt-slow", event: "ghost.signal", timestamp: "2026-01-01T00:00:00.001Z", data: { reason: "slow" } });

    const turn = host.runDue();
    await fastSettled;
    await nextMacrotask(); // every continuation of the fast answer has run
    wall.advance(10_000);
    releaseSlow();
    await turn;

    const firstRound = await store.webhooks.deliveries(subscription.id, 50);
    const fast = firstRound.find((r) => r.statusCode === 500);
    const slow = firstRound.find((r) => r.statusCode === 200);
    // Both were sent at T0, the instant their webhook-timestamp header carries.
    expect(fast?.at).toBe(T0);
    expect(slow?.at).toBe(T0);
    expect(fast?.next).toBe("retry");

    // The wall clock is 10 s on: the fast failure's retry (due at T0 + 5 s) is overdue and goes out now.
    await host.runDue();
    const timing = receiver.received.filter((r) => r.path === "/timing");
    expect(timing).toHaveLength(3);
    expect(timing[2]?.body).toContain("\"fast\"");
    const log = await store.webhooks.deliveries(subscription.id, 50);
    expect(log.filter((r) => r.statusCode === 500).map((r) => r.attempt).sort()).toEqual([1, 2]);
  });
});
