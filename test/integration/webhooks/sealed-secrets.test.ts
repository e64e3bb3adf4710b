import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhooksCapability } from "../../../src/composition/capabilities/webhooks.js";
import { WebhookSubscriptionActor } from "../../../src/actors/webhook-subscription-actor.js";
import { captureLogger, type CapturedLogger } from "../../support/capture-logger.js";
import { sealKey, storeDump } from "../../support/store-dump.js";
import { createKey, freshStoreUrl, startService, type RunningService, type StoreKind } from "../../support/service.js";
import { waitFor } from "../../support/wait-for.js";
import { ghostSignal, unsealFailures } from "./support/sealing.js";
import { startHttpsReceiver, type HttpsReceiver, type ReceivedDelivery } from "./support/receiver.js";
import { createTestPki, type TestPki } from "./support/tls.js";

/**
 * Webhook signing secrets sealed at rest (WEBHOOK_SECRET_KEYS): whoever reads the store (its
 * rows, the subscription actors' state, a backup) does not find a secret a subscriber trusts,
 * while the service still signs with it: test sends, event deliveries across restarts, rotations,
 * and a key replaced by another.
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

function headersOf(d: ReceivedDelivery): Record<string, string> {
  return Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k, String(v)]));
}

/** The Standard Webhooks verification a subscriber runs with the secret it was shown. */
function verifiesWith(secret: string, d: ReceivedDelivery): boolean {
  try {
    new Webhook(secret).verify(d.body, headersOf(d));
    return true;
  } catch {
    return false;
  }
}

async function call(svc: RunningService, method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(svc.url + path, {
    method,
    headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe.each<StoreKind>(["sqlite", "mongodb"])("webhook secrets sealed at rest on %s", (kind) => {
  const start = (storeUrl: string, keys: string | null, log?: CapturedLogger): Promise<RunningService> =>
    startService(
      { STORE_URL: storeUrl, WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", ...(keys === null ? {} : { WEBHOOK_SECRET_KEYS: keys }) },
      { capabilities: [createWebhooksCapability({ ca: pki.ca })], ...(log === undefined ? {} : { logger: log.logger }) },
    );
  const at = (path: string): ReceivedDelivery[] => receiver.received.filter((r) => r.path === path);

  /** Publishes a ghost.signal and waits until it arrived and its outcome is in the actor state. */
  async function deliverEvent(svc: RunningService, id: string, path: string, tradeId: string): Promise<ReceivedDelivery> {
    const before = at(path).length;
    await svc.service.deps.bus.publish("ghost.signal", ghostSignal(tradeId));
    await waitFor(async () => at(path).length > before, 10_000, "the event delivered");
    await waitFor(async () => (await svc.service.deps.host.proxy(WebhookSubscriptionActor, id).pendingCount()) === 0, 10_000, "the outcome committed");
    const got = at(path)[before];
    if (got === undefined) throw new Error("no delivery");
    return got;
  }

  it("keeps no secret in the store, signs test sends and events with it, and survives a rotation, a restart and a new key", async () => {
    const storeUrl = freshStoreUrl(kind, "sealed");
    const k1 = sealKey("k1");
    const path = `/sealed-${kind}`;
    const pausedPath = `/sealed-paused-${kind}`;
    const first = await start(storeUrl, k1);
    const key = await createKey(first, "basic");
    const created = await call(first, "POST", "/v1/webhooks", key, { url: receiver.url(path), events: ["ghost.signal"] });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    const secret = String(created.body.secret);
    expect(secret).toMatch(/^whsec_/);
    // A paused subscription: no delivery rewrites it, so only the start-up can seal it anew.
    const paused = await call(first, "POST", "/v1/webhooks", key, { url: receiver.url(pausedPath), events: ["ghost.signal"] });
    const pausedId = String(paused.body.id);
    const pausedSecret = String(paused.body.secret);
    expect((await call(first, "PATCH", `/v1/webhooks/${pausedId}`, key, { is_active: false })).status).toBe(200);

    // The test send signs with the store's copy, the event delivery with the actor's.
    expect((await call(first, "POST", "/v1/webhooks/test", key, { webhook_id: id })).body).toMatchObject({ delivered: 1 });
    expect(verifiesWith(secret, at(path)[0] as ReceivedDelivery)).toBe(true);
    expect(verifiesWith(secret, await deliverEvent(first, id, path, "e1"))).toBe(true);

    const rotated = await call(first, "POST", `/v1/webhooks/${id}/rotate-secret`, key);
    expect(rotated.status).toBe(200);
    const secret2 = String(rotated.body.secret);
    await first.stop();

    const secrets = [secret, secret2, pausedSecret];
    let dump = await storeDump(kind, storeUrl);
    expect(dump).toContain(id);
    expect(dump).toContain("sealed.v1.k1.");
    for (const s of secrets) {
      expect(dump).not.toContain(s);
      expect(dump).not.toContain(s.slice("whsec_".length));
    }

    // A new key first, the old one still listed: the start-up seals every copy anew with k2,
    // the paused subscription's and the rotated-out secret (still signing for 24 h) included.
    const log = captureLogger();
    const k2 = sealKey("k2");
    const second = await start(storeUrl, `${k2},${k1}`, log);
    await second.stop();
    expect(log.lines.find((l) => l.msg === "webhook secrets sealed at rest")).toMatchObject({ sealing_key: "k2", subscriptions: 2, sealed_with: { k2: 2 }, sealed_again: 2 });
    dump = await storeDump(kind, storeUrl);
    expect(dump).toContain("sealed.v1.k2.");
    expect(dump).not.toContain("sealed.v1.k1.");
    for (const s of secrets) expect(dump).not.toContain(s.slice("whsec_".length));

    // So k1 can go: with k2 alone every secret still signs.
    const third = await start(storeUrl, k2);
    try {
      const afterRestart = await deliverEvent(third, id, path, "e2");
      expect(verifiesWith(secret2, afterRestart)).toBe(true);
      expect(verifiesWith(secret, afterRestart)).toBe(true);
      expect((await call(third, "PATCH", `/v1/webhooks/${pausedId}`, key, { is_active: true })).status).toBe(200);
      expect((await call(third, "POST", "/v1/webhooks/test", key, { webhook_id: pausedId })).body).toMatchObject({ delivered: 1 });
      expect(verifiesWith(pausedSecret, at(pausedPath)[0] as ReceivedDelivery)).toBe(true);
    } finally {
      await third.stop();
    }
  });

  it("seals a secret stored before keys were set at the next start, and says when a secret's key is missing", async () => {
    const storeUrl = freshStoreUrl(kind, "unsealed");
    const path = `/unsealed-${kind}`;
    const plain = await start(storeUrl, null);
    const key = await createKey(plain, "basic");
    const created = await call(plain, "POST", "/v1/webhooks", key, { url: receiver.url(path), events: ["ghost.signal"] });
    const id = String(created.body.id);
    const secret = String(created.body.secret);
    await plain.stop();
    // Without keys the secret is stored as issued: the dump below can see one.
    expect(await storeDump(kind, storeUrl)).toContain(secret);

    // The start-up with a key seals it: no event, no change needed.
    const k1 = sealKey("k1");
    await (await start(storeUrl, k1)).stop();
    expect(await storeDump(kind, storeUrl)).not.toContain(secret.slice("whsec_".length));
    const sealed = await start(storeUrl, k1);
    expect(verifiesWith(secret, await deliverEvent(sealed, id, path, "p1"))).toBe(true);
    await sealed.stop();

    // The key that sealed it is gone: nothing is signed with anything else, and the log says why.
    const log = captureLogger();
    const failuresBefore = await unsealFailures("unknown_key");
    const missing = await start(storeUrl, sealKey("k9"), log);
    try {
      const test = await call(missing, "POST", "/v1/webhooks/test", key, { webhook_id: id });
      expect(test.status).toBe(500);
      expect(Object.keys(test.body).sort()).toEqual(["detail", "request_id"]);
      // An event for it and for a subscription sealed with k9: the fan-out leaves the one it
      // cannot open out, and says so before the publish resolves...
      const readablePath = `/unsealed-readable-${kind}`;
      // Another key's: this key's subscriptions cannot be listed (a 500), so it cannot add one.
      const readable = await call(missing, "POST", "/v1/webhooks", await createKey(missing, "basic"), { url: receiver.url(readablePath), events: ["ghost.signal"] });
      expect(readable.status).toBe(201);
      const readableId = String(readable.body.id);
      const leftOut = () => log.lines.filter((l) => l.msg === "webhook subscriptions unreadable: left out of the fan-out");
      expect(leftOut()).toEqual([]);
      const before = at(path).length;
      const readableBefore = at(readablePath).length;
      await missing.service.deps.bus.publish("ghost.signal", ghostSignal("p2"));
      expect(leftOut()).toEqual([expect.objectContaining({ webhook_ids: [id], event: "ghost.signal" })]);
      // ...and delivers it to the other only. That delivery, its outcome committed, is the
      // barrier: an unreadable subscription let into the fan-out would have been sent the same
      // event on a reminder turn armed at the same moment.
      await waitFor(async () => at(readablePath).length > readableBefore, 10_000, "the event delivered to the readable subscription");
      await waitFor(async () => (await missing.service.deps.host.proxy(WebhookSubscriptionActor, readableId).pendingCount()) === 0, 10_000, "its outcome committed");
      expect(at(path)).toHaveLength(before);
      const reasons = log.lines.filter((l) => l.msg === "webhook secret could not be opened").map((l) => l.reason);
      expect(reasons).toContain('webhook secret sealed with key "k1", which WEBHOOK_SECRET_KEYS does not name');
      expect(JSON.stringify(log.lines)).not.toContain(secret.slice("whsec_".length));
      // Counted for an alert: the start-up's check, the test send, the fan-out at least.
      expect(await unsealFailures("unknown_key")).toBeGreaterThanOrEqual(failuresBefore + 3);

      // Revoking the key still answers for what it did (the key is gone; a 500 could not be
      // retried with it), and the subscription its actor could not update is named in the log.
      const revoked = await call(missing, "DELETE", "/v1/keys/current", key);
      expect(revoked).toEqual({ status: 200, body: { deactivated: true } });
      expect(log.lines.filter((l) => l.msg === "webhook subscription not marked key_deactivated: its actor refused the change").map((l) => l.webhook_id)).toEqual([id]);
    } finally {
      await missing.stop();
    }
  });
});
