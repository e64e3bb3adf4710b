import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebhookSubscriptionActor } from "../../../src/actors/webhook-subscription-actor.js";
import { marketDataCapability } from "../../../src/composition/capabilities/market-data.js";
import { createWebhooksCapability } from "../../../src/composition/capabilities/webhooks.js";
import type { Clock } from "../../../src/runtime/clocks/clock.js";
import type { EventEnvelope } from "../../../src/events/event-envelope.js";
import { runCli } from "../../support/cli.js";
import { createKey, freshStoreUrl, startService, type RunningService } from "../../support/service.js";
import { waitFor } from "../../support/wait-for.js";
import { startHttpsReceiver, type HttpsReceiver, type ReceivedDelivery } from "../webhooks/support/receiver.js";
import { createTestPki } from "../webhooks/support/tls.js";

/** Issue 19 item 2: webhooks follow their key through a rotation and stop with its deactivation. */

class OffsetClock implements Clock {
  offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
}

let receiver: HttpsReceiver;
let svc: RunningService;
let storeUrl: string;
const clock = new OffsetClock();

async function call(method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(svc.url + path, {
    method,
    headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function register(key: string, path: string): Promise<string> {
  const res = await call("POST", "/v1/webhooks", key, { url: receiver.url(path), events: ["ghost.signal"] });
  expect(res.status).toBe(201);
  return String(res.body.id);
}

const at = (path: string): ReceivedDelivery[] => receiver.received.filter((r) => r.path === path);
const event = (): EventEnvelope => ({ id: randomUUID(), event: "ghost.signal", timestamp: new Date().toISOString(), data: { asset: "BTC", action: "ENTRY", trade_id: randomUUID() } });
const publish = () => svc.service.deps.bus.publish("ghost.signal", event());

/** Waits until the subscription's actor has recorded `n` attempts (including cancellations). */
async function logged(id: string, n: number): Promise<Awaited<ReturnType<RunningService["service"]["store"]["webhooks"]["deliveries"]>>> {
  return waitFor(async () => {
    const records = await svc.service.store.webhooks.deliveries(id, 50);
    return records.length >= n && records;
  }, 10_000, `${n} recorded attempts of ${id}`);
}

/** A Basic key and its subscription to `path`, whose first delivery failed (a retry is due in 5 s). */
async function failedOnce(path: string): Promise<{ key: string; id: string }> {
  receiver.respond = (req) => ({ status: req.path === path ? 500 : 200 });
  const key = await createKey(svc, "basic");
  const id = await register(key, path);
  await publish();
  await logged(id, 1);
  return { key, id };
}

beforeAll(async () => {
  const pki = createTestPki();
  receiver = await startHttpsReceiver(pki);
  storeUrl = freshStoreUrl("sqlite", "key-webhooks");
  svc = await startService(
    { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", STORE_URL: storeUrl },
    { wallClock: clock, capabilities: [marketDataCapability, createWebhooksCapability({ ca: pki.ca })] },
  );
});

afterAll(async () => {
  await svc.stop();
  await receiver.stop();
});

describe("webhooks and the life of their key", () => {
  it("POST /v1/keys/rotate carries the subscriptions over to the new key", async () => {
    const old = await createKey(svc, "basic");
    const id = await register(old, "/rotated");
    const rotated = await fetch(`${svc.url}/v1/keys/rotate`, { method: "POST", headers: { "x-api-key": old } });
    expect(rotated.status).toBe(201);
    const fresh = String(((await rotated.json()) as { api_key: string }).api_key);

    expect((await call("GET", "/v1/webhooks", fresh)).body).toMatchObject({ count: 1, webhooks: [{ id, is_active: true, disabled_reason: null }] });
    expect((await call("GET", "/v1/webhooks", old)).status).toBe(401);
    await publish();
    await waitFor(async () => at("/rotated").length === 1, 10_000, "a delivery after the rotation");
    expect((await call("PATCH", `/v1/webhooks/${id}`, fresh, { is_active: false })).body).toMatchObject({ is_active: false, disabled_reason: "paused" });
    expect((await call("DELETE", `/v1/webhooks/${id}`, fresh)).status).toBe(200);
  });

  it("subscriptions belong to the key's lineage: two rotations keep them, the 5-webhook limit spans it, and deactivating the newest key stops them", async () => {
    const first = await createKey(svc, "basic");
    const ids = [await register(first, "/lineage")];
    const rotate = async (key: string) => String(((await (await fetch(`${svc.url}/v1/keys/rotate`, { method: "POST", headers: { "x-api-key": key } })).json()) as { api_key: string }).api_key);
    const second = await rotate(first);
    for (let i = 0; i < 4; i++) ids.push(await register(second, `/lineage${i}`));
    const third = await rotate(second);
    expect((await call("POST", "/v1/webhooks", third, { url: receiver.url("/sixth"), events: ["ghost.signal"] })).status).toBe(409);
    expect(((await call("GET", "/v1/webhooks", third)).body.webhooks as { id: string }[]).map((w) => w.id).sort()).toEqual([...ids].sort());
    await publish();
    await waitFor(async () => at("/lineage").length === 1, 10_000, "a delivery after two rotations");

    const cli = await runCli(["keys", "deactivate", third], { STORE_URL: storeUrl });
    expect(cli.code).toBe(0);
    await publish();
    const records = await logged(ids[0] ?? "", 2);
    expect(records[0]).toMatchObject({ error: "key_deactivated" });
    expect(at("/lineage")).toHaveLength(1);
  });

  it("DELETE /v1/keys/current stops pending retries at once, and the subscription says why", async () => {
    try {
      const { key, id } = await failedOnce("/deactivated");
      expect((await fetch(`${svc.url}/v1/keys/current`, { method: "DELETE", headers: { "x-api-key": key } })).status).toBe(200);

      const records = await logged(id, 2);
      expect(records[0]).toMatchObject({ error: "key_deactivated", statusCode: null });
      expect(await svc.service.store.webhooks.get(id)).toMatchObject({ isActive: false, disabledReason: "key_deactivated" });
      // Nothing is left to send: every retry of the schedule would be due by now.
      clock.offset += 600_000;
      await publish();
      expect(await svc.service.actors.host.proxy(WebhookSubscriptionActor, id).pendingCount()).toBe(0);
      expect(at("/deactivated")).toHaveLength(1);
    } finally {
      receiver.respond = () => ({ status: 200 });
    }
  });

  it("a subscription whose row is gone sends nothing more, even if its actor state outlived the delete", async () => {
    try {
      const { id } = await failedOnce("/orphaned");
      // DELETE's turn removed the row and then failed to commit: the actor still holds the retry.
      expect(await svc.service.store.webhooks.delete(id)).toBe(true);
      receiver.respond = () => ({ status: 200 });
      clock.offset += 600_000;
      const actor = svc.service.actors.host.proxy(WebhookSubscriptionActor, id);
      await waitFor(async () => (await actor.pendingCount()) === 0, 10_000, "the orphaned retry to be dropped");
      expect(at("/orphaned")).toHaveLength(1);
    } finally {
      receiver.respond = () => ({ status: 200 });
    }
  });

  it("the CLI's keys deactivate stops deliveries at the next attempt, on another process", async () => {
    const key = await createKey(svc, "basic");
    const id = await register(key, "/cli");
    const cli = await runCli(["keys", "deactivate", key], { STORE_URL: storeUrl });
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toEqual({ deactivated: true });

    await publish();
    const records = await logged(id, 1);
    expect(records[0]).toMatchObject({ error: "key_deactivated" });
    expect(await svc.service.store.webhooks.get(id)).toMatchObject({ isActive: false, disabledReason: "key_deactivated" });
    expect(at("/cli")).toHaveLength(0);
  });
});
