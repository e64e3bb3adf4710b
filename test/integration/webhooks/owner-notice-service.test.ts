import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { marketDataCapability } from "../../../src/composition/capabilities/market-data.js";
import { createWebhooksCapability } from "../../../src/composition/capabilities/webhooks.js";
import type { EventEnvelope } from "../../../src/events/event-envelope.js";
import { metricsRegistry } from "../../../src/observability/metrics.js";
import { WebhookSubscriptionActor } from "../../../src/actors/webhook-subscription-actor.js";
import { captureLogger } from "../../support/capture-logger.js";
import { freshStoreUrl, startService, type RunningService } from "../../support/service.js";
import { sealKey, storeDump } from "../../support/store-dump.js";
import { startSmtp, type RunningSmtp } from "../../support/smtp.js";
import { waitFor } from "../../support/wait-for.js";
import { startHttpsReceiver, type HttpsReceiver } from "./support/receiver.js";
import { createTestPki } from "./support/tls.js";

/** `mis_webhook_owner_notices_total{result}` as /metrics shows it (the collectors are per process). */
async function noticesCounted(result: string): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric("mis_webhook_owner_notices_total")?.get();
  return metric?.values.find((v) => v.labels.result === result)?.value ?? 0;
}

function ghostSignal(): EventEnvelope {
  return {
    id: randomUUID(),
    event: "ghost.signal",
    timestamp: new Date().toISOString(),
    data: { asset: "BTC", action: "ENTRY", trade_id: "t1", price: 91000, size: 0.1, mode: "A", reason: "test", pnl_usd: null, is_paper: true },
  };
}

/**
 * The whole path a trader relies on: their receiver answers 410, the service disables the
 * subscription, and the address the key was generated with receives the notice over real SMTP.
 */
describe.each<{ sealing: string; env: Record<string, string> }>([
  { sealing: "stored as given", env: {} },
  // The address is sealed at rest: the notice must go to the opened address, never the stored text.
  { sealing: "sealed at rest", env: { PERSONAL_DATA_KEYS: sealKey("k1") } },
])("a webhook disabled by its receiver, in the running service, key owners $sealing", ({ env }) => {
  const storeUrl = freshStoreUrl("sqlite", "owner-notice");
  const log = captureLogger();
  let smtp: RunningSmtp;
  let receiver: HttpsReceiver;
  let svc: RunningService;

  beforeAll(async () => {
    const pki = createTestPki();
    receiver = await startHttpsReceiver(pki, (req) => ({ status: req.path.startsWith("/gone") ? 410 : 200 }));
    smtp = await startSmtp();
    svc = await startService(
      { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", SMTP_URL: smtp.url, MAIL_FROM: "hello@market-intel.test", PUBLIC_BASE_URL: "https://api.example.com", STORE_URL: storeUrl, ...env },
      { capabilities: [marketDataCapability, createWebhooksCapability({ ca: pki.ca })], logger: log.logger },
    );
  });
  afterAll(async () => {
    await svc.stop();
    await receiver.stop();
    await smtp.stop();
  });

  async function subscribe(apiKey: string, path: string): Promise<string> {
    const res = await fetch(`${svc.url}/v1/webhooks`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body: JSON.stringify({ url: receiver.url(path), events: ["ghost.signal"] }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }

  async function listed(apiKey: string): Promise<{ id: string; is_active: boolean }[]> {
    const res = await fetch(`${svc.url}/v1/webhooks`, { headers: { "x-api-key": apiKey } });
    return ((await res.json()) as { webhooks: { id: string; is_active: boolean }[] }).webhooks;
  }

  it("mails the key's owner once, naming the subscription and not its URL, and counts the notice", async () => {
    const sentBefore = await noticesCounted("sent");
    const { apiKey } = await svc.service.deps.keyIssuer.create("basic", "Olga Owner", "olga@example.org");
    const id = await subscribe(apiKey, "/gone-olga");
    await svc.service.deps.bus.publish("ghost.signal", ghostSignal());

    const mails = await waitFor(async () => smtp.mails.length >= 1 && smtp.mails, 10_000, "the owner's notice");
    expect(mails.map((m) => m.to)).toEqual([["olga@example.org"]]);
    // Quoted-printable: soft line breaks joined, so a URL split across lines is still found.
    const raw = (mails[0]?.raw ?? "").replace(/=\r?\n/g, "");
    expect(raw).toContain("Subject: Your webhook subscription was disabled");
    expect(raw).toContain(`Webhook subscription ${id} was disabled`);
    expect(raw).toContain(`https://api.example.com/v1/webhooks/${id}/deliveries`);
    expect(raw).not.toContain("/gone-olga");
    expect(await listed(apiKey)).toEqual([expect.objectContaining({ id, is_active: false })]);
    // Sealed, the store never held the address the mail went to.
    expect((await storeDump("sqlite", storeUrl)).includes("olga@example.org")).toBe(env.PERSONAL_DATA_KEYS === undefined);
    await waitFor(async () => (await noticesCounted("sent")) - sentBefore === 1, 10_000, "the sent notice counted");

    // The notice is settled: nothing is owed, so later events and turns send no second mail.
    // A call queues behind the turn that sent the mail, so that turn has committed when it answers.
    expect(await svc.service.deps.host.proxy(WebhookSubscriptionActor, id).pendingCount()).toBe(0);
    // The turn recorded the try as sent, with no retry scheduled...
    const tried = log.lines.filter((l) => l.msg === "webhook owner notice tried" && l.webhook_id === id);
    expect(tried).toEqual([expect.objectContaining({ result: "sent", again_at: null })]);
    // ...and left no reminder that would wake the actor for another try.
    const reminders = (await svc.service.store.actorState.loadReminders()).filter((r) => r.actorType === WebhookSubscriptionActor.actorType && r.actorId === id);
    expect(reminders).toEqual([]);
    // An event later does not reach the inactive subscription at all.
    await svc.service.deps.bus.publish("ghost.signal", ghostSignal());
    expect(smtp.mails).toHaveLength(1);
  });

  it("mails nobody for a key generated without an address, and counts that there was nobody to tell", async () => {
    const before = { mails: smtp.mails.length, noAddress: await noticesCounted("no_address") };
    const { apiKey } = await svc.service.deps.keyIssuer.create("basic", null, null);
    const id = await subscribe(apiKey, "/gone-anonymous");
    await svc.service.deps.bus.publish("ghost.signal", ghostSignal());

    await waitFor(async () => (await noticesCounted("no_address")) - before.noAddress === 1, 10_000, "the notice with nobody to tell");
    expect(await listed(apiKey)).toEqual([expect.objectContaining({ id, is_active: false })]);
    expect(smtp.mails).toHaveLength(before.mails);
  });
});
