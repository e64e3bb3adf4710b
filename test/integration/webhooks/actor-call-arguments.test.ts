import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebhookSubscriptionActor } from "../../../src/actors/webhook-subscription-actor.js";
import type { EventEnvelope } from "../../../src/events/event-envelope.js";
import { createSubscription } from "../../../src/domain/webhooks/subscription.js";
import type { DeliveryOutcome } from "../../../src/domain/webhooks/outcome.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { openSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../../src/store/store.js";
import { captureLogger, type CapturedLogger } from "../../support/capture-logger.js";
import { createSecretSealer } from "../../../src/sealing/secret-sealer.js";

/**
 * On Dapr a subscription actor's arguments are JSON another replica sent, possibly one of another
 * build during a rolling upgrade. What does not read as this build's arguments changes nothing.
 */
describe("a webhook subscription actor called with arguments of another shape", () => {
  let store: Store;
  let host: LocalActorHost;
  let log: CapturedLogger;
  const wall = new ManualClock(Date.UTC(2026, 0, 1));
  const subscription = createSubscription({ id: "wh_args", ownerKeyId: "k1", url: "https://receiver.example/hook", events: ["verdict.new"], secret: `whsec_${"B".repeat(32)}`, now: wall.now() });
  const actor = () => host.proxy(WebhookSubscriptionActor, subscription.id);
  /** What a replica of another build might send: JSON the type system of this one never saw. */
  const fromWire = (json: string) => JSON.parse(json) as EventEnvelope;

  beforeEach(async () => {
    store = openSqliteStore(":memory:");
    log = captureLogger();
    const deliver = async (): Promise<DeliveryOutcome> => ({ kind: "success", statusCode: 200, durationMs: 3 });
    host = new LocalActorHost({ store: store.actorState, clock: new ManualClock(Date.UTC(2025, 0, 1)), wallClock: wall, logger: log.logger, pollIntervalMs: 0 });
    host.register(WebhookSubscriptionActor, (ctx) => new WebhookSubscriptionActor(ctx, { repo: store.webhooks, deliver, ownerActive: async () => true, wall, sealer: createSecretSealer([]), onUnsealFailure: () => expect.unreachable("nothing is sealed here"), noticeOwner: async () => "no_address" }));
    await host.start();
    await store.webhooks.insertWithinLimit(subscription, 5);
  });

  afterEach(async () => {
    await host.shutdown();
    await store.close();
  });

  it("answers a malformed event envelope as dropped, queues nothing, and says which fields", async () => {
    const malformed = fromWire(`{"id":"evt-1","event":"verdict.new","timestamp":1767225600000,"data":{}}`);
    expect(await actor().accept(malformed)).toEqual({ accepted: false, reason: "malformed" });
    expect(await actor().pendingCount()).toBe(0);
    const warning = log.lines.find((l) => l.msg === "webhook event dropped: not an event envelope");
    expect(warning?.fields).toEqual(["timestamp"]);

    // The same event in this build's shape is taken.
    const good = fromWire(`{"id":"evt-1","event":"verdict.new","timestamp":"2026-01-01T00:00:00.000Z","data":{}}`);
    expect(await actor().accept(good)).toEqual({ accepted: true, reason: "accepted" });
    expect(await actor().pendingCount()).toBe(1);
  });

  it("refuses an is_active that is not a boolean, and the subscription stays as it was", async () => {
    await expect(actor().setActive(JSON.parse(`"false"`) as boolean)).rejects.toThrow();
    expect((await store.webhooks.get(subscription.id))?.isActive).toBe(true);
    expect((await actor().setActive(false))?.isActive).toBe(false);
  });
});
