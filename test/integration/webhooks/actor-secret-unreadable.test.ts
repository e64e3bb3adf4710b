import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhooksCapability } from "../../../src/composition/capabilities/webhooks.js";
import { WebhookSubscriptionActor } from "../../../src/actors/webhook-subscription-actor.js";
import { captureLogger } from "../../support/capture-logger.js";
import { sealKey } from "../../support/store-dump.js";
import { createKey, freshStoreUrl, startService, type RunningService } from "../../support/service.js";
import { openStore } from "../../../src/store/open-store.js";
import { sealedWebhooks } from "../../../src/webhook-delivery/sealed-webhooks.js";
import { createSecretSealer, sealKeysSetting } from "../../../src/sealing/secret-sealer.js";
import { waitFor } from "../../support/wait-for.js";
import { ghostSignal, unsealFailures } from "./support/sealing.js";
import { startHttpsReceiver, type HttpsReceiver } from "./support/receiver.js";
import { createTestPki, type TestPki } from "./support/tls.js";

/**
 * A subscription actor keeps its own sealed copy of the secret, and a retry turn reads only that
 * copy. When it does not open (the key that sealed it was dropped from WEBHOOK_SECRET_KEYS), the
 * operator learns it as from the store's copy: the unseal-failure counter and an error line naming
 * the subscription. Before, such turns failed every time with neither.
 */
let pki: TestPki;
let receiver: HttpsReceiver;

beforeAll(async () => {
  pki = createTestPki();
  receiver = await startHttpsReceiver(pki);
});

afterAll(async () => {
  await receiver.stop();
});

/** A service on `storeUrl` holding `keys`, logging into `logger`. */
function startOn(storeUrl: string, keys: string, logger = captureLogger()): Promise<RunningService> {
  return startService(
    { STORE_URL: storeUrl, WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_SECRET_KEYS: keys },
    { capabilities: [createWebhooksCapability({ ca: pki.ca })], logger: logger.logger },
  );
}

/**
 * Registers a subscription to `path` on a service sealing with `keys`, and passes one event
 * through its actor, so the actor state (with its own sealed copy of the secret) is stored.
 * Returns the subscription's id; the service is stopped.
 */
async function subscriptionWithActorState(storeUrl: string, keys: string, path: string): Promise<string> {
  const svc = await startOn(storeUrl, keys);
  try {
    const key = await createKey(svc, "basic");
    const res = await fetch(`${svc.url}/v1/webhooks`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ url: receiver.url(path), events: ["ghost.signal"] }),
    });
    expect(res.status).toBe(201);
    const id = String(((await res.json()) as { id: string }).id);
    await svc.service.deps.bus.publish("ghost.signal", ghostSignal(path));
    await waitFor(async () => receiver.received.some((r) => r.path === path), 10_000, "the event delivered");
    await waitFor(async () => (await svc.service.deps.host.proxy(WebhookSubscriptionActor, id).pendingCount()) === 0, 10_000, "the outcome committed");
    return id;
  } finally {
    await svc.stop();
  }
}

describe("a subscription actor whose own copy of the secret does not open", () => {
  it("counts and logs the failure, naming the subscription", async () => {
    const storeUrl = freshStoreUrl("sqlite", "actor-unseal");
    const id = await subscriptionWithActorState(storeUrl, sealKey("k1"), "/actor-unseal");

    // k1 dropped: neither copy opens. The start-up's pass counts the store's copy; then the
    // actor is called directly, as another replica's fan-out (or its own reminder) calls it.
    const log = captureLogger();
    const second = await startOn(storeUrl, sealKey("k2"), log);
    try {
      const before = await unsealFailures("unknown_key");
      const linesBefore = log.lines.length;
      await expect(second.service.deps.host.proxy(WebhookSubscriptionActor, id).accept(ghostSignal("t2"))).rejects.toThrow();
      expect(await unsealFailures("unknown_key")).toBe(before + 1);
      expect(log.lines.slice(linesBefore).filter((l) => l.msg === "webhook secret could not be opened")).toEqual([
        expect.objectContaining({ level: 50, webhook_id: id }),
      ]);
    } finally {
      await second.stop();
    }
  });

  it("does not keep the service from starting: the subscription is left out of the resume and said so", async () => {
    const storeUrl = freshStoreUrl("sqlite", "actor-unseal-start");
    const k1 = sealKey("k1");
    const k2 = sealKey("k2");
    const id = await subscriptionWithActorState(storeUrl, k1, "/actor-unseal-start");
    // What a re-seal cut off between its two writes leaves: the store's copy under k2, the
    // actor's own still under k1.
    const raw = await openStore(storeUrl);
    try {
      const both = sealedWebhooks(raw.webhooks, createSecretSealer(sealKeysSetting.parse(`${k2},${k1}`)), () => expect.unreachable("both keys are listed"));
      const stored = await both.get(id);
      if (stored === null) throw new Error("subscription missing");
      await both.save(stored);
    } finally {
      await raw.close();
    }
    // k1 dropped, as the start-up count (store copies only) said it could be.
    const log = captureLogger();
    const second = await startOn(storeUrl, k2, log);
    try {
      expect(log.lines.filter((l) => l.msg === "webhook secret could not be opened")).toEqual([expect.objectContaining({ level: 50, webhook_id: id })]);
      const health = await fetch(`${second.url}/v1/health/ready`);
      expect(health.status).toBe(200);
    } finally {
      await second.stop();
    }
  }, 60_000);
});
