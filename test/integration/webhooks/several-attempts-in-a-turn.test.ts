import type { Agent } from "node:https";
import { setImmediate as nextMacrotask } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
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
import { createTestPki } from "./support/tls.js";
import { createSecretSealer } from "../../../src/sealing/secret-sealer.js";

/**
 * A delivery turn sends every due attempt of a subscription at once and waits for all of them.
 * What each attempt's receiver sees must not depend on the others sent beside it: its answer is
 * recorded as given, and its retry follows its own answer.
 */
describe("a delivery turn that sends several attempts", () => {
  let receiver: HttpsReceiver;
  let agent: Agent;
  let store: Store | null = null;
  let host: LocalActorHost | null = null;
  const T0 = Date.UTC(2026, 0, 1);
  const wall = new ManualClock(T0);

  beforeAll(async () => {
    const pki = createTestPki();
    receiver = await startHttpsReceiver(pki);
    agent = createDeliveryAgent({ allowPrivateTargets: true, ca: pki.ca });
  });

  afterAll(async () => {
    agent.destroy();
    await receiver.stop();
  });

  afterEach(async () => {
    await host?.shutdown();
    await store?.close();
  });

  /** A host on a fresh store whose webhook actor delivers through `wrap(real HTTPS deliverer)`. */
  async function startHost(wrap: (http: Deliver) => Deliver = (http) => http): Promise<{ store: Store; host: LocalActorHost }> {
    wall.set(T0);
    store = openSqliteStore(":memory:");
    host = new LocalActorHost({ store: store.actorState, clock: new ManualClock(Date.UTC(2025, 0, 1)), wallClock: wall, logger: captureLogger().logger, pollIntervalMs: 0 });
    const deliver = wrap(createHttpDeliverer({ agent, timeoutMs: 5_000 }));
    const repo = store.webhooks;
    host.register(WebhookSubscriptionActor, (ctx) => new WebhookSubscriptionActor(ctx, { repo, deliver, ownerActive: async () => true, wall, sealer: createSecretSealer([]), onUnsealFailure: () => expect.unreachable("nothing is sealed here"), noticeOwner: async () => "no_address" }));
    await host.start();
    return { store, host };
  }

  async function subscribe(s: Store, h: LocalActorHost, id: string, path: string) {
    const subscription = createSubscription({ id, ownerKeyId: "k1", url: receiver.url(path), events: ["ghost.signal"], secret: `whsec_${"A".repeat(32)}`, now: wall.now() });
    await s.webhooks.insertWithinLimit(subscription, 5);
    return { subscription, actor: h.proxy(WebhookSubscriptionActor, subscription.id) };
  }

  /**
   * When one attempt is answered 410 the subscription is disabled, but the others were already
   * sent and answered: the log and the subscription must say what those answers were, not that
   * the attempts were "cancelled" before being made. (A receiver that acknowledged an event must
   * not read, in GET /v1/webhooks/{id}/deliveries, that it never got it.)
   */
  it("records the attempts it sent beside a 410 with their real answers", async () => {
    const { store: s, host: h } = await startHost();
    receiver.respond = (req) => ({ status: req.body.includes("\"gone\"") ? 410 : 200 });
    const { subscription, actor } = await subscribe(s, h, "wh_gone_batch", "/batch");
    await actor.accept({ id: "evt-gone", event: "ghost.signal", timestamp: "2025-01-01T00:00:00.000Z", data: { reason: "gone" } });
    await actor.accept({ id: "evt-ok", event: "ghost.signal", timestamp: "2025-01-01T00:00:00.001Z", data: { reason: "fine" } });

    await h.runDue();

    expect(receiver.received.filter((r) => r.path === "/batch")).toHaveLength(2);
    const log = await s.webhooks.deliveries(subscription.id, 50);
    // Both attempts were made (attempt 1) and each is logged with the status it got.
    expect(log.map((r) => [r.attempt, r.statusCode, r.error]).sort()).toEqual([
      [1, 200, null],
      [1, 410, "http_status"],
    ]);
    expect(await s.webhooks.get(subscription.id)).toMatchObject({ isActive: false, disabledReason: "gone" });
    expect(await actor.pendingCount()).toBe(0);
  });

  /**
   * A receiver that answers one event with a fast 500 while another attempt of the same turn
   * takes 10 s must see its retry 5 s after its own answer (SPEC's schedule), and the log must say
   * when each attempt was sent (the instant its webhook-timestamp header carries), not when the
   * slowest one ended.
   */
  it("retries a fast failure 5 s after its own answer, not after the slowest attempt, and logs when each was sent", async () => {
    let fastDone: () => void = () => undefined;
    const fastSettled = new Promise<void>((resolve) => (fastDone = resolve));
    let releaseSlow: () => void = () => undefined;
    const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
    // The slow event's answer is held back until the test has moved the wall clock, so "slow"
    // means 10 s of service time, deterministically.
    const { store: s, host: h } = await startHost((http) => async (request) => {
      const outcome = await http(request);
      if (request.body.includes("\"slow\"")) await slowGate;
      else fastDone();
      return outcome;
    });
    receiver.respond = (req) => ({ status: req.body.includes("\"slow\"") ? 200 : 500 });
    const { subscription, actor } = await subscribe(s, h, "wh_own_timing", "/timing");
    await actor.accept({ id: "evt-fast", event: "ghost.signal", timestamp: "2026-01-01T00:00:00.000Z", data: { reason: "fast" } });
    await actor.accept({ id: "evt-slow", event: "ghost.signal", timestamp: "2026-01-01T00:00:00.001Z", data: { reason: "slow" } });

    const turn = h.runDue();
    await fastSettled;
    await nextMacrotask(); // every continuation of the fast answer has run
    wall.advance(10_000);
    releaseSlow();
    await turn;

    const firstRound = await s.webhooks.deliveries(subscription.id, 50);
    const fast = firstRound.find((r) => r.statusCode === 500);
    const slow = firstRound.find((r) => r.statusCode === 200);
    // Both were sent at T0, the instant their webhook-timestamp header carries.
    expect(fast?.at).toBe(T0);
    expect(slow?.at).toBe(T0);
    expect(fast?.next).toBe("retry");

    // The wall clock is 10 s on: the fast failure's retry (due at T0 + 5 s) is overdue and goes out now.
    await h.runDue();
    const timing = receiver.received.filter((r) => r.path === "/timing");
    expect(timing).toHaveLength(3);
    expect(timing[2]?.body).toContain("\"fast\"");
    const log = await s.webhooks.deliveries(subscription.id, 50);
    expect(log.filter((r) => r.statusCode === 500).map((r) => r.attempt).sort()).toEqual([1, 2]);
  });
});
