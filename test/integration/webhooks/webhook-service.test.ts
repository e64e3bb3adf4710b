import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Clock } from "../../../src/runtime/clocks/clock.js";
import type { EventEnvelope } from "../../../src/events/event-envelope.js";
import { marketDataCapability } from "../../../src/composition/capabilities/market-data.js";
import { createWebhooksCapability } from "../../../src/composition/capabilities/webhooks.js";
import { CAPABILITIES } from "../../../src/composition/capability-list.js";
import type { Capability } from "../../../src/composition/capability.js";
import { createKey, freshStoreUrl, startService, type RunningService } from "../../support/service.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { loadConfig } from "../../../src/config/env.js";
import { buildService } from "../../../src/composition/build-service.js";
import { createSubscription } from "../../../src/domain/webhooks/subscription.js";
import { generateSecret } from "../../../src/domain/webhooks/secret.js";
import { waitFor } from "../../support/wait-for.js";
import { WebhookSubscriptionActor } from "../../../src/actors/webhook-subscription-actor.js";
import { startHttpsReceiver, type HttpsReceiver, type ReceivedDelivery } from "./support/receiver.js";
import { createTestPki, type TestPki } from "./support/tls.js";
import { MarketIntelClient } from "../../../sdk/client.js";
import { parseStandardWebhook, parseVerifiedWebhook } from "../../../sdk/webhooks.js";
import { deliveryHeadersSchema, WEBHOOK_EVENT_PAYLOADS, webhookEnvelopeSchema } from "../../../src/http/schemas/webhook-events.js";
import { metricsRegistry } from "../../../src/observability/metrics.js";

/** Wall time the test moves forward, so 5/25/125 s retries take no real time (market time follows). */
class OffsetClock implements Clock {
  offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
}

let pki: TestPki;
let receiver: HttpsReceiver;

function withWebhooks(base: readonly Capability[]): Capability[] {
  return [...base.filter((c) => c.name !== "webhooks"), createWebhooksCapability({ ca: pki.ca })];
}

async function call(svc: RunningService, method: string, path: string, key: string | null, body?: unknown, raw?: string) {
  const headers: Record<string, string> = {};
  if (key !== null) headers["x-api-key"] = key;
  if (body !== undefined || raw !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(svc.url + path, { method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { detail?: unknown } };
}

interface Created {
  id: string;
  secret: string;
}

async function register(svc: RunningService, key: string, path: string, events: string[]): Promise<Created> {
  const res = await call(svc, "POST", "/v1/webhooks", key, { url: receiver.url(path), events });
  expect(res.status).toBe(201);
  return res.body as unknown as Created;
}

const at = (path: string): ReceivedDelivery[] => receiver.received.filter((r) => r.path === path);

/** `mis_webhook_deliveries_total{outcome}` as /metrics shows it (the collectors are per process). */
async function deliveriesCounted(outcome: string): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric("mis_webhook_deliveries_total")?.get();
  return metric?.values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
}

function envelope(type: string, data: Record<string, string | number | null | boolean>): EventEnvelope {
  return { id: randomUUID(), event: type, timestamp: new Date().toISOString(), data };
}

const ghostSignal = { asset: "BTC", action: "ENTRY", trade_id: "t1", price: 91000, size: 0.1, mode: "A", reason: "test", pnl_usd: null, is_paper: true };

async function waitCount(path: string, n: number, what: string): Promise<ReceivedDelivery[]> {
  return waitFor(async () => at(path).length >= n && at(path), 10_000, what);
}

/**
 * Waits until the actor has recorded `n` attempts: the retry is scheduled from the moment the
 * outcome is applied, so the test may move the clock only after that.
 */
async function waitLogged(svc: RunningService, key: string, id: string, n: number): Promise<void> {
  await waitFor(async () => {
    const res = await call(svc, "GET", `/v1/webhooks/${id}/deliveries`, key);
    return (res.body as { deliveries: unknown[] }).deliveries.length >= n;
  }, 10_000, `${n} logged attempts`);
}

/**
 * Deliveries the subscription's actor still holds for an attempt. Zero proves that nothing more
 * can be sent, whatever the clocks do: every attempt starts from a pending delivery.
 */
function pending(svc: RunningService, id: string): Promise<number> {
  return svc.service.deps.host.proxy(WebhookSubscriptionActor, id).pendingCount();
}

/** Waits until the actor has nothing left to send (its last attempt's outcome is committed). */
async function waitDrained(svc: RunningService, id: string, what: string): Promise<void> {
  await waitFor(async () => (await pending(svc, id)) === 0, 10_000, what);
}

beforeAll(async () => {
  pki = createTestPki();
  receiver = await startHttpsReceiver(pki);
});

afterAll(async () => {
  await receiver.stop();
});

describe("webhooks in the running service", () => {
  let svc: RunningService;
  const clock = new OffsetClock();
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    svc = await startService({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" }, { wallClock: clock, capabilities: withWebhooks([marketDataCapability]) });
    keyA = await createKey(svc, "basic");
    keyB = await createKey(svc, "pro");
  });
  afterAll(async () => {
    await svc.stop();
  });

  it("registers, shows the secret once, and sends a signed test event both libraries verify", async () => {
    const created = await call(svc, "POST", "/v1/webhooks", keyA, { url: receiver.url("/t1"), events: ["verdict.new", "regime.change"] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: receiver.url("/t1"), events: ["verdict.new", "regime.change"], is_active: true });
    const { id, secret } = created.body as unknown as Created;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const list = await call(svc, "GET", "/v1/webhooks", keyA);
    expect(list.body).toEqual({
      webhooks: [{ id, url: receiver.url("/t1"), events: ["verdict.new", "regime.change"], secret: null, is_active: true, disabled_reason: null, created_at: expect.any(String), last_triggered_at: null, failures_since_success: 0 }],
      count: 1,
    });

    const test = await call(svc, "POST", "/v1/webhooks/test", keyA, { webhook_id: id });
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ delivered: 1, failed: 0, results: [{ webhook_id: id, success: true, status_code: 200, error: null }] });
    const [got] = at("/t1");
    if (got === undefined) throw new Error("no test delivery");
    const headers = Object.fromEntries(Object.entries(got.headers).map(([k, v]) => [k, String(v)]));
    expect(new Webhook(secret).verify(got.body, headers)).toEqual({ event: "webhook.test", timestamp: expect.any(String), data: { message: expect.any(String), webhook_id: id } });
    expect(headers["x-service-signature"]).toBe(createHmac("sha256", secret).update(got.body).digest("hex"));
    expect(headers["x-service-event"]).toBe("webhook.test");
    // As the OpenAPI document's `webhooks` describes it.
    expect(deliveryHeadersSchema.safeParse(headers).success).toBe(true);
    expect(webhookEnvelopeSchema("webhook.test", WEBHOOK_EVENT_PAYLOADS["webhook.test"].data).safeParse(JSON.parse(got.body)).success).toBe(true);

    // Without webhook_id (and without a body): every active subscription of the key.
    const all = await call(svc, "POST", "/v1/webhooks/test", keyA);
    expect(all.body).toMatchObject({ delivered: 1, failed: 0 });
    // Test deliveries are not counted on the subscription.
    expect((await call(svc, "GET", "/v1/webhooks", keyA)).body).toMatchObject({ webhooks: [{ failures_since_success: 0, last_triggered_at: null }] });
    await call(svc, "DELETE", `/v1/webhooks/${id}`, keyA);
  });

  it("the SDK's typed calls register, test, pause, rotate and remove a subscription", async () => {
    const client = new MarketIntelClient({ baseUrl: svc.url, apiKey: await createKey(svc, "basic") });
    const created = await client.createWebhook({ url: receiver.url("/sdk"), events: ["council.new"] });
    expect(created).toMatchObject({ url: receiver.url("/sdk"), events: ["council.new"], is_active: true });
    expect((await client.webhooks()).webhooks.map((w) => [w.id, w.secret])).toEqual([[created.id, null]]);
    const deliveredBefore = await deliveriesCounted("delivered");
    expect(await client.testWebhooks(created.id)).toMatchObject({ delivered: 1, failed: 0, results: [{ webhook_id: created.id, success: true }] });
    expect((await deliveriesCounted("delivered")) - deliveredBefore).toBe(1);
    const [got] = at("/sdk");
    if (got === undefined) throw new Error("no test delivery");
    // The SDK verifies what the service signed, with the secret it was shown once.
    expect(parseVerifiedWebhook(got.body, String(got.headers["x-service-signature"]), created.secret)).toMatchObject({ event: "webhook.test" });
    expect((await client.webhookDeliveries(created.id)).webhook_id).toBe(created.id);
    expect(await client.setWebhookActive(created.id, false)).toMatchObject({ id: created.id, is_active: false, disabled_reason: "paused" });
    const rotated = await client.rotateWebhookSecret(created.id);
    expect(rotated.secret).not.toBe(created.secret);
    // A receiver still holding the old secret verifies deliveries made after the rotation.
    await client.setWebhookActive(created.id, true);
    expect(await client.testWebhooks(created.id)).toMatchObject({ delivered: 1 });
    const afterRotation = at("/sdk")[1];
    if (afterRotation === undefined) throw new Error("no delivery after the rotation");
    const receivedHeaders = afterRotation.headers;
    // The receiver's clock is the service's (moved forward by earlier cases), as a real one would be.
    const receiverClock = { now: () => clock.now() };
    expect(parseStandardWebhook(afterRotation.body, receivedHeaders, created.secret, receiverClock)).toMatchObject({ event: "webhook.test" });
    expect(parseStandardWebhook(afterRotation.body, receivedHeaders, rotated.secret, receiverClock)).toMatchObject({ event: "webhook.test" });
    expect(await client.deleteWebhook(created.id)).toEqual({ id: created.id, deleted: true });
    // An id that is not this key's: the API's coded 404, read by the SDK.
    await expect(client.deleteWebhook(created.id)).rejects.toMatchObject({ status: 404, code: "webhook_not_found" });
  });

  it("limits webhook tests to 10 a minute per key: each one sends at once to URLs the caller chose", async () => {
    const k = await createKey(svc, "basic");
    const s = await register(svc, k, "/limited", ["verdict.new"]);
    // One second into a minute window, so all eleven calls fall in the same one.
    clock.offset += 60_000 - (clock.now() % 60_000) + 1_000;
    for (let i = 0; i < 10; i++) expect((await call(svc, "POST", "/v1/webhooks/test", k, { webhook_id: s.id })).status).toBe(200);
    const over = await call(svc, "POST", "/v1/webhooks/test", k, { webhook_id: s.id });
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ detail: { error: "rate_limit_exceeded", limit: 10, window_seconds: 60 } });
    expect(at("/limited")).toHaveLength(10);
    // The key's other routes are not held up by it.
    expect((await call(svc, "GET", "/v1/webhooks", k)).status).toBe(200);
    await call(svc, "DELETE", `/v1/webhooks/${s.id}`, k);
  });

  it("rotates the secret: the new one signs, the old one still verifies webhook-signature", async () => {
    const s = await register(svc, keyA, "/rot", ["ghost.signal"]);
    const rotated = await call(svc, "POST", `/v1/webhooks/${s.id}/rotate-secret`, keyA);
    expect(rotated.status).toBe(200);
    const secret = (rotated.body as { secret: string }).secret;
    expect(secret).not.toBe(s.secret);
    await call(svc, "POST", "/v1/webhooks/test", keyA, { webhook_id: s.id });
    const [got] = at("/rot");
    if (got === undefined) throw new Error("no delivery");
    const headers = Object.fromEntries(Object.entries(got.headers).map(([k, v]) => [k, String(v)]));
    expect(new Webhook(secret).verify(got.body, headers)).toEqual(JSON.parse(got.body));
    expect(new Webhook(s.secret).verify(got.body, headers)).toEqual(JSON.parse(got.body));
    expect(headers["x-service-signature"]).toBe(createHmac("sha256", secret).update(got.body).digest("hex"));
    await call(svc, "DELETE", `/v1/webhooks/${s.id}`, keyA);
  });

  it("delivers a bus event once per subscription, with one delivery id across retries", async () => {
    const a = await register(svc, keyA, "/e-a", ["ghost.signal"]);
    const b = await register(svc, keyA, "/e-b", ["ghost.signal", "macro.alert"]);
    const c = await register(svc, keyA, "/e-c", ["council.new"]);
    receiver.respond = (req) => (req.path === "/e-a" && at("/e-a").length <= 2 ? { status: 503 } : { status: 200 });
    const event = envelope("ghost.signal", ghostSignal);
    await svc.service.deps.bus.publish("ghost.signal", event);
    // An at-least-once redelivery of the same event changes nothing.
    await svc.service.deps.bus.publish("ghost.signal", event);
    await waitCount("/e-a", 1, "first attempt");
    await waitCount("/e-b", 1, "delivery to b");
    await waitLogged(svc, keyA, a.id, 1);
    expect(await pending(svc, a.id)).toBe(1);
    clock.offset += 5_000;
    await waitCount("/e-a", 2, "retry after 5 s");
    await waitLogged(svc, keyA, a.id, 2);
    clock.offset += 25_000;
    const attempts = await waitCount("/e-a", 3, "retry after 25 s");
    await waitDrained(svc, a.id, "a's third attempt committed");
    // Nothing left to send for any of the three, so the counts below are final.
    expect(await pending(svc, b.id)).toBe(0);
    expect(await pending(svc, c.id)).toBe(0);
    expect(at("/e-a")).toHaveLength(3);
    expect(at("/e-b")).toHaveLength(1);
    expect(at("/e-c")).toHaveLength(0);
    const ids = new Set(attempts.map((r) => r.headers["x-service-delivery"]));
    expect(ids.size).toBe(1);
    expect(attempts.map((r) => r.body)).toEqual([attempts[0]?.body, attempts[0]?.body, attempts[0]?.body]);
    expect(at("/e-b")[0]?.headers["x-service-delivery"]).not.toBe(attempts[0]?.headers["x-service-delivery"]);
    expect(JSON.parse(attempts[0]?.body ?? "{}")).toEqual({ event: "ghost.signal", timestamp: event.timestamp, data: ghostSignal });
    for (const r of attempts) expect(r.headers["x-service-signature"]).toBe(createHmac("sha256", a.secret).update(r.body).digest("hex"));

    const log = await call(svc, "GET", `/v1/webhooks/${a.id}/deliveries`, keyA);
    // `next` tells the subscriber what followed each attempt (a retry, or the delivery).
    expect((log.body as { deliveries: { attempt: number; status_code: number; next: string }[] }).deliveries.map((d) => [d.attempt, d.status_code, d.next])).toEqual([
      [3, 200, "delivered"],
      [2, 503, "retry"],
      [1, 503, "retry"],
    ]);
    const list = (await call(svc, "GET", "/v1/webhooks", keyA)).body as { webhooks: { id: string; last_triggered_at: string | null; failures_since_success: number }[] };
    expect(list.webhooks.find((w) => w.id === a.id)).toMatchObject({ failures_since_success: 0, last_triggered_at: expect.any(String) });
    expect(list.webhooks.find((w) => w.id === b.id)?.last_triggered_at).not.toBeNull();
    for (const w of list.webhooks) await call(svc, "DELETE", `/v1/webhooks/${w.id}`, keyA);
  });

  it("disables after 10 consecutive failures, and PATCH re-enables with the count reset", async () => {
    const failedBefore = await deliveriesCounted("http_status");
    const s = await register(svc, keyA, "/dis", ["ghost.signal"]);
    receiver.respond = (req) => (req.path === "/dis" ? { status: 500 } : { status: 200 });
    for (let i = 0; i < 3; i++) await svc.service.deps.bus.publish("ghost.signal", envelope("ghost.signal", { ...ghostSignal, trade_id: `d${i}` }));
    await waitCount("/dis", 3, "three first attempts");
    await waitLogged(svc, keyA, s.id, 3);
    clock.offset += 5_000;
    await waitCount("/dis", 6, "three first retries");
    await waitLogged(svc, keyA, s.id, 6);
    clock.offset += 25_000;
    await waitCount("/dis", 9, "three second retries");
    await waitLogged(svc, keyA, s.id, 9);
    clock.offset += 125_000;
    await waitCount("/dis", 10, "the tenth failure");
    await waitDrained(svc, s.id, "the tenth failure committed");
    expect(at("/dis")).toHaveLength(10);
    // The replica's metric counts each attempt by its outcome.
    expect((await deliveriesCounted("http_status")) - failedBefore).toBe(10);
    const listed = await call(svc, "GET", "/v1/webhooks", keyA);
    expect(listed.body).toMatchObject({ webhooks: [{ id: s.id, is_active: false, failures_since_success: 10 }] });
    // The subscriber is told what became of each event: the first one's fourth attempt (the
    // tenth failure) used up its retries; the other two, still due a retry, were cancelled.
    const log = (await call(svc, "GET", `/v1/webhooks/${s.id}/deliveries`, keyA)).body as { deliveries: { attempt: number; next: string }[] };
    expect(log.deliveries.slice(0, 3).map((d) => [d.attempt, d.next])).toEqual([
      [3, "cancelled"],
      [3, "cancelled"],
      [4, "exhausted"],
    ]);
    // An inactive subscription receives nothing: publish resolves once the fan-out is done, and
    // the actor was handed nothing to send.
    await svc.service.deps.bus.publish("ghost.signal", envelope("ghost.signal", ghostSignal));
    expect(await pending(svc, s.id)).toBe(0);
    expect(at("/dis")).toHaveLength(10);

    receiver.respond = () => ({ status: 200 });
    const patched = await call(svc, "PATCH", `/v1/webhooks/${s.id}`, keyA, { is_active: true });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: s.id, is_active: true, failures_since_success: 0 });
    await svc.service.deps.bus.publish("ghost.signal", envelope("ghost.signal", ghostSignal));
    await waitCount("/dis", 11, "delivery after re-enabling");
    await call(svc, "DELETE", `/v1/webhooks/${s.id}`, keyA);
  });

  it("DELETE cancels pending retries", async () => {
    const s = await register(svc, keyA, "/del", ["ghost.signal"]);
    receiver.respond = (req) => (req.path === "/del" ? { status: 500 } : { status: 200 });
    await svc.service.deps.bus.publish("ghost.signal", envelope("ghost.signal", ghostSignal));
    await waitCount("/del", 1, "first attempt");
    await waitLogged(svc, keyA, s.id, 1);
    expect(await pending(svc, s.id)).toBe(1);
    const deleted = await call(svc, "DELETE", `/v1/webhooks/${s.id}`, keyA);
    expect(deleted).toEqual({ status: 200, body: { id: s.id, deleted: true } });
    // The retry was pending before DELETE and is gone after it: nothing can be sent any more.
    expect(await pending(svc, s.id)).toBe(0);
    expect(at("/del")).toHaveLength(1);
    expect((await call(svc, "GET", "/v1/webhooks", keyA)).body).toEqual({ webhooks: [], count: 0 });
    expect((await call(svc, "DELETE", `/v1/webhooks/${s.id}`, keyA)).status).toBe(404);
    receiver.respond = () => ({ status: 200 });
  });

  it("a key sees and touches only its own subscriptions", async () => {
    const s = await register(svc, keyA, "/own", ["ghost.signal"]);
    expect((await call(svc, "GET", "/v1/webhooks", keyB)).body).toEqual({ webhooks: [], count: 0 });
    const notFound = { status: 404, body: { detail: { error: "webhook_not_found", message: expect.any(String) } } };
    expect(await call(svc, "DELETE", `/v1/webhooks/${s.id}`, keyB)).toEqual(notFound);
    expect(await call(svc, "PATCH", `/v1/webhooks/${s.id}`, keyB, { is_active: false })).toEqual(notFound);
    expect(await call(svc, "POST", "/v1/webhooks/test", keyB, { webhook_id: s.id })).toEqual(notFound);
    expect(await call(svc, "POST", `/v1/webhooks/${s.id}/rotate-secret`, keyB)).toEqual(notFound);
    expect(await call(svc, "GET", `/v1/webhooks/${s.id}/deliveries`, keyB)).toEqual(notFound);
    expect(await call(svc, "DELETE", "/v1/webhooks/wh_missing", keyA)).toEqual(notFound);
    // An id longer than any the service issues is still just an id this key does not own.
    const long = `wh_${"x".repeat(300)}`;
    expect(await call(svc, "DELETE", `/v1/webhooks/${long}`, keyA)).toEqual(notFound);
    expect(await call(svc, "PATCH", `/v1/webhooks/${long}`, keyA, { is_active: false })).toEqual(notFound);
    expect(await call(svc, "POST", `/v1/webhooks/${long}/rotate-secret`, keyA)).toEqual(notFound);
    expect(await call(svc, "GET", `/v1/webhooks/${long}/deliveries`, keyA)).toEqual(notFound);
    expect(await call(svc, "POST", "/v1/webhooks/test", keyA, { webhook_id: long })).toEqual(notFound);
    expect((await call(svc, "GET", "/v1/webhooks", keyA)).body).toMatchObject({ count: 1 });
    await call(svc, "DELETE", `/v1/webhooks/${s.id}`, keyA);
  });

  it("answers every validation and limit error in the documented shape", async () => {
    const issue = (loc: unknown[]) => ({ loc, msg: expect.any(String), type: expect.any(String) });
    const post = (body: unknown) => call(svc, "POST", "/v1/webhooks", keyA, body);
    expect(await post({ url: "http://example.com/hook", events: ["verdict.new"] })).toEqual({ status: 422, body: { detail: [issue(["body", "url"])] } });
    expect(await post({ url: "not a url", events: ["verdict.new"] })).toEqual({ status: 422, body: { detail: [issue(["body", "url"])] } });
    expect(await post({ url: receiver.url("/v"), events: [] })).toEqual({ status: 422, body: { detail: [issue(["body", "events"])] } });
    expect(await post({ url: receiver.url("/v"), events: ["verdict.old"] })).toEqual({ status: 422, body: { detail: [issue(["body", "events", 0])] } });
    expect(await post({ url: receiver.url("/v") })).toEqual({ status: 422, body: { detail: [issue(["body", "events"])] } });
    expect(await post({ url: receiver.url("/v"), events: ["verdict.new"], extra: 1 })).toEqual({ status: 422, body: { detail: [{ loc: ["body", "extra"], msg: expect.any(String), type: "extra_forbidden" }] } });
    const bad = await call(svc, "POST", "/v1/webhooks", keyA, undefined, "{not json");
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([expect.objectContaining({ type: "json_invalid" })]);
    expect(await call(svc, "PATCH", "/v1/webhooks/wh_x", keyA, { is_active: "yes" })).toEqual({ status: 422, body: { detail: [issue(["body", "is_active"])] } });
    expect(await call(svc, "POST", "/v1/webhooks/test", keyA, { webhook_id: 5 })).toEqual({ status: 422, body: { detail: [issue(["body", "webhook_id"])] } });

    const free = await createKey(svc, "free");
    expect(await call(svc, "GET", "/v1/webhooks", free)).toMatchObject({ status: 403, body: { detail: { error: "tier_required" } } });
    expect(await call(svc, "GET", "/v1/webhooks", null)).toMatchObject({ status: 401, body: { detail: { error: "missing_api_key" } } });

    for (let i = 0; i < 5; i++) await register(svc, keyA, `/lim${i}`, ["verdict.new"]);
    expect(await post({ url: receiver.url("/lim5"), events: ["verdict.new"] })).toEqual({
      status: 409,
      body: { detail: { error: "webhook_limit_reached", message: expect.any(String), limit: 5 } },
    });
    // Another key has its own five.
    await register(svc, keyB, "/limb", ["verdict.new"]);
    const list = (await call(svc, "GET", "/v1/webhooks", keyA)).body as { webhooks: { id: string }[] };
    for (const w of list.webhooks) await call(svc, "DELETE", `/v1/webhooks/${w.id}`, keyA);
  });
});

describe("webhook registration without WEBHOOK_ALLOW_PRIVATE_TARGETS", () => {
  it("refuses loopback, private and metadata targets with 422", async () => {
    const svc = await startService({}, { capabilities: withWebhooks([]) });
    try {
      const key = await createKey(svc, "basic");
      for (const url of [receiver.url("/p"), "https://10.0.0.5/h", "https://169.254.169.254/latest", "https://[::1]/h", "https://localhost/h"]) {
        const res = await call(svc, "POST", "/v1/webhooks", key, { url, events: ["verdict.new"] });
        expect(res, url).toEqual({ status: 422, body: { detail: [{ loc: ["body", "url"], msg: expect.any(String), type: expect.any(String) }] } });
      }
    } finally {
      await svc.stop();
    }
  });
});

describe("webhook retries across a restart", () => {
  it("resumes the retry schedule on the same store after a restart", async () => {
    const storeUrl = freshStoreUrl("sqlite", "webhook-restart");
    const clock = new OffsetClock();
    const env = { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", STORE_URL: storeUrl };
    const first = await startService(env, { wallClock: clock, capabilities: withWebhooks([marketDataCapability]) });
    const key = await createKey(first, "basic");
    const s = await register(first, key, "/restart", ["ghost.signal"]);
    receiver.respond = (req) => (req.path === "/restart" && at("/restart").length === 1 ? { status: 500 } : { status: 200 });
    await first.service.deps.bus.publish("ghost.signal", envelope("ghost.signal", ghostSignal));
    await waitCount("/restart", 1, "first attempt");
    await waitLogged(first, key, s.id, 1);
    await first.stop();

    const second = await startService(env, { wallClock: clock, capabilities: withWebhooks([marketDataCapability]) });
    try {
      // The retry survived the restart and waits for its wall-time instant: still pending, and
      // the one reminder that can send it is a wall reminder due later than the wall clock's now.
      expect(await pending(second, s.id)).toBe(1);
      const reminders = await second.service.deps.store.actorState.loadReminders();
      const retry = reminders.find((r) => r.actorType === WebhookSubscriptionActor.actorType && r.actorId === s.id);
      expect(retry?.clock).toBe("wall");
      expect(retry?.dueAt).toBeGreaterThan(clock.now());
      expect(at("/restart")).toHaveLength(1);
      clock.offset += 5_000;
      const both = await waitCount("/restart", 2, "the retry after the restart");
      expect(both[1]?.headers["x-service-delivery"]).toBe(both[0]?.headers["x-service-delivery"]);
      expect(both[1]?.body).toBe(both[0]?.body);
      await waitDrained(second, s.id, "the retry's success committed");
      expect(at("/restart")).toHaveLength(2);
      expect((await call(second, "GET", "/v1/webhooks", key)).body).toMatchObject({ webhooks: [{ id: s.id, failures_since_success: 0 }] });
    } finally {
      receiver.respond = () => ({ status: 200 });
      await second.stop();
    }
  });
});

describe("webhooks with the real producers", () => {
  it("a verdict.new produced by the judiciary reaches a subscriber", async () => {
    const svc = await startService({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" }, { capabilities: withWebhooks(CAPABILITIES) });
    try {
      const key = await createKey(svc, "basic");
      const s = await register(svc, key, "/verdicts", ["verdict.new"]);
      // REPLAY_SPEED 60: a verdict every 5 market minutes is one every 5 wall seconds.
      const [got] = await waitFor(async () => at("/verdicts").length >= 1 && at("/verdicts"), 20_000, "a verdict.new delivery");
      const body = JSON.parse(got?.body ?? "{}") as { event: string; data: Record<string, unknown> };
      expect(body.event).toBe("verdict.new");
      expect(body.data).toEqual({ ruling: expect.any(String), composite_score: expect.any(Number), confidence: expect.any(Number), regime: expect.any(String) });
      const documented = webhookEnvelopeSchema("verdict.new", WEBHOOK_EVENT_PAYLOADS["verdict.new"].data).safeParse(body);
      expect(documented.error?.issues ?? []).toEqual([]);
      expect(deliveryHeadersSchema.safeParse(got?.headers).success).toBe(true);
      expect(got?.headers["x-service-signature"]).toBe(createHmac("sha256", s.secret).update(got?.body ?? "").digest("hex"));
    } finally {
      await svc.stop();
    }
  });

  it("verdict.new events produced during the warm-up reach a subscription that existed at start", async () => {
    const config = loadConfig({
      STORE_URL: freshStoreUrl("sqlite", "webhook-warm"),
      LOG_LEVEL: "silent",
      REPLAY_WARMUP_DAYS: "1",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      PORT: "0",
      HOST: "127.0.0.1",
    });
    const service = await buildService(config, { feed: await sharedReplayFeed(), capabilities: withWebhooks(CAPABILITIES) });
    const secret = generateSecret(randomBytes);
    // As after a restart: the subscription is in the store before the actors start. Its owner
    // is a real, active key: deliveries of a deactivated key's subscriptions stop (issue 19).
    const owner = (await service.deps.keyIssuer.create("basic", "warm", null)).record.id;
    await service.store.webhooks.insertWithinLimit(
      createSubscription({ id: "wh_warm", ownerKeyId: owner, url: receiver.url("/warm"), events: ["verdict.new"], secret, now: Date.now() }),
      5,
    );
    try {
      await service.listen();
      await service.warmedUp;
      const got = await waitFor(async () => at("/warm").length >= 1 && at("/warm"), 10_000, "warm-up verdicts");
      const bodies = got.map((r) => JSON.parse(r.body) as { event: string; timestamp: string });
      expect(bodies.every((b) => b.event === "verdict.new")).toBe(true);
      // Each event once: distinct delivery ids and envelope timestamps.
      expect(new Set(got.map((r) => r.headers["x-service-delivery"])).size).toBe(got.length);
      expect(new Set(bodies.map((b) => b.timestamp)).size).toBe(got.length);
      for (const r of got) expect(r.headers["x-service-signature"]).toBe(createHmac("sha256", secret).update(r.body).digest("hex"));
    } finally {
      await service.stop();
    }
  });
});
