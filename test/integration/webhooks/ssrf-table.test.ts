import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { marketDataCapability } from "../../../src/composition/capabilities/market-data.js";
import { createWebhooksCapability } from "../../../src/composition/capabilities/webhooks.js";
import { generateSecret } from "../../../src/domain/webhooks/secret.js";
import { createSubscription } from "../../../src/domain/webhooks/subscription.js";
import { startDnsServer, type LocalDnsServer } from "../../support/dns-server.js";
import { startService, type RunningService } from "../../support/service.js";
import { startHttpsReceiver, type HttpsReceiver } from "./support/receiver.js";
import { createTestPki } from "./support/tls.js";

/**
 * Issue 19 item 1: every spelling of a special-purpose address is refused when a webhook is
 * registered (POST /v1/webhooks answers 422) and when it is delivered (the agent's lookup or
 * literal check refuses before connecting: error "target_refused", nothing reaches the
 * receiver). The service runs with WEBHOOK_ALLOW_PRIVATE_TARGETS=false and resolves names
 * through a real DNS server started here (WEBHOOK_DNS_SERVERS). The HTTPS receiver listens on
 * 127.0.0.1 at the port every URL names, and the agent trusts its CA: a loopback leak would
 * be a successful delivery, any other leak a timeout or connection error, never
 * "target_refused".
 */

/** Host spellings as they appear in a URL (the URL parser turns 0x7f.1 into 127.0.0.1, etc.). */
const LITERALS: readonly string[] = [
  // IPv4, one or more per IANA special-purpose entry, and the URL parser's numeric spellings
  "0.0.0.0", "0.1.2.3", "10.0.0.1", "10.255.255.254", "100.64.0.1", "100.127.255.254",
  "127.0.0.1", "127.1", "2130706433", "0x7f000001", "0177.0.0.1", "0x7f.0.0.1",
  "169.254.169.254", "169.254.0.1", "172.16.0.1", "172.31.255.254", "192.0.0.1", "192.0.0.8",
  "192.0.0.170", "192.0.2.10", "192.31.196.1", "192.52.193.1", "192.88.99.1", "192.168.1.1",
  "192.175.48.1", "198.18.0.1", "198.19.255.254", "198.51.100.1", "203.0.113.1", "224.0.0.1",
  "239.255.255.250", "240.0.0.1", "255.255.255.255",
  // IPv6: loopback and unspecified, every IPv4-embedding form, every registry entry, site-local
  "[::1]", "[0:0:0:0:0:0:0:1]", "[::]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]",
  "[::ffff:169.254.169.254]", "[::127.0.0.1]", "[::7f00:1]", "[::10.0.0.1]", "[::ffff:0:127.0.0.1]",
  "[64:ff9b::127.0.0.1]", "[64:ff9b::a9fe:a9fe]", "[64:ff9b:1::a9fe:a9fe]", "[64:ff9b:1::7f00:1]",
  "[2002:7f00:1::1]", "[2002:a9fe:a9fe::1]", "[2001:0:4136:e378:8000:63bf:3fff:fdd2]", "[2001::7f00:1]",
  "[100::1]", "[100:0:0:1::1]", "[2001:2::1]", "[2001:3::1]", "[2001:4:112::1]", "[2001:10::1]",
  "[2001:20::1]", "[2001:30::1]", "[2001:db8::1]", "[2620:4f:8000::1]", "[3fff::1]", "[5f00::1]",
  "[fc00::1]", "[fd00:ec2::254]", "[fe80::1]", "[fec0::1]", "[ff02::1]",
];

/** DNS names and what the local resolver answers for them (A and AAAA). */
const NAMES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["loopback.ssrf.test", ["127.0.0.1"]],
  ["v6-loopback.ssrf.test", ["::1"]],
  ["dual-loopback.ssrf.test", ["127.0.0.1", "::1"]],
  ["metadata.ssrf.test", ["169.254.169.254"]],
  ["private.ssrf.test", ["10.1.2.3"]],
  ["cgnat.ssrf.test", ["100.64.0.1"]],
  ["mixed.ssrf.test", ["93.184.216.34", "192.168.0.10"]],
  ["mapped.ssrf.test", ["::ffff:7f00:1"]],
  ["compatible.ssrf.test", ["::7f00:1"]],
  ["nat64.ssrf.test", ["64:ff9b::a9fe:a9fe"]],
  ["nat64-local.ssrf.test", ["64:ff9b:1::a9fe:a9fe"]],
  ["6to4.ssrf.test", ["2002:a00:1::1"]],
  ["teredo.ssrf.test", ["2001:0:4136:e378:8000:63bf:3fff:fdd2"]],
  ["site-local.ssrf.test", ["fec0::1"]],
  ["unique-local.ssrf.test", ["fd12:3456::1"]],
  ["link-local.ssrf.test", ["fe80::1"]],
];

/** A public address (example.com's): registration accepts it; deliveries never get there here. */
const PUBLIC = "93.184.216.34";

let svc: RunningService;
let dns: LocalDnsServer;
let receiver: HttpsReceiver;
let key: string;
/** A fresh Basic key: each case tests delivery with its own, as webhook tests are limited per key (10 a minute). */
const freshKey = () => svc.service.deps.keyIssuer.create("basic", "ssrf", null);

async function call(method: string, path: string, body?: unknown, as = key): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(svc.url + path, {
    method,
    headers: { "x-api-key": as, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const urlFor = (host: string): string => `https://${host}:${receiver.port}/hook`;

async function expectRegistrationRefused(host: string, type = "url_forbidden_address"): Promise<Record<string, unknown>> {
  const res = await call("POST", "/v1/webhooks", { url: urlFor(host), events: ["verdict.new"] });
  expect(res.status).toBe(422);
  expect(res.body).toMatchObject({ detail: [{ loc: ["body", "url"], type }] });
  return res.body;
}

async function expectDeliveryRefused(id: string, as = key): Promise<void> {
  const res = await call("POST", "/v1/webhooks/test", { webhook_id: id }, as);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ delivered: 0, failed: 1, results: [{ webhook_id: id, success: false, status_code: null, error: "target_refused" }] });
  expect(receiver.received).toHaveLength(0);
}

beforeAll(async () => {
  const pki = createTestPki();
  receiver = await startHttpsReceiver(pki);
  dns = await startDnsServer();
  svc = await startService(
    { WEBHOOK_ALLOW_PRIVATE_TARGETS: "false", WEBHOOK_DNS_SERVERS: dns.server },
    { capabilities: [marketDataCapability, createWebhooksCapability({ ca: pki.ca })] },
  );
  const issued = await svc.service.deps.keyIssuer.create("basic", "ssrf", null);
  key = issued.apiKey;
});

afterAll(async () => {
  await svc.stop();
  await dns.stop();
  await receiver.stop();
});

beforeEach(() => {
  receiver.received.length = 0;
});

describe("SSRF: every special-purpose spelling is refused at registration and at delivery", () => {
  it.each(LITERALS)("literal %s", async (host) => {
    await expectRegistrationRefused(host);
    // A subscription stored before this policy (as issue 19 found `[::7f00:1]`): the agent refuses it.
    const stored = await freshKey();
    const subscription = createSubscription({
      id: `wh_${randomBytes(12).toString("base64url")}`,
      ownerKeyId: stored.record.usageId,
      url: new URL(urlFor(host)).href,
      events: ["verdict.new"],
      secret: generateSecret(randomBytes),
      now: Date.now(),
    });
    expect(await svc.service.deps.store.webhooks.insertWithinLimit(subscription, 1_000)).toBe(true);
    await expectDeliveryRefused(subscription.id, stored.apiKey);
  });

  it.each(NAMES)("name %s → %j", async (name, addresses) => {
    dns.records.set(name, addresses);
    await expectRegistrationRefused(name, "url_host_not_public");
    // DNS rebinding: the name is public at registration and special-purpose at delivery.
    dns.records.set(name, [PUBLIC]);
    const own = (await freshKey()).apiKey;
    const created = await call("POST", "/v1/webhooks", { url: urlFor(name), events: ["verdict.new"] }, own);
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    dns.records.set(name, addresses);
    try {
      await expectDeliveryRefused(id, own);
    } finally {
      expect((await call("DELETE", `/v1/webhooks/${id}`, undefined, own)).status).toBe(200);
    }
  });

  it("accepts a public name, so the refusals above are the policy's", async () => {
    dns.records.set("public.ssrf.test", [PUBLIC, "2606:2800:220:1:248:1893:25c8:1946"]);
    const created = await call("POST", "/v1/webhooks", { url: urlFor("public.ssrf.test"), events: ["verdict.new"] });
    expect(created.status).toBe(201);
    expect((await call("DELETE", `/v1/webhooks/${String(created.body.id)}`)).status).toBe(200);
  });

  it("a key at its limit of five gets 409 before any name is looked up, whatever the URL", async () => {
    dns.records.set("public.ssrf.test", [PUBLIC]);
    const own = (await freshKey()).apiKey;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await call("POST", "/v1/webhooks", { url: `${urlFor("public.ssrf.test")}${i}`, events: ["verdict.new"] }, own);
      expect(created.status).toBe(201);
      ids.push(String(created.body.id));
    }
    dns.records.set("sixth.ssrf.test", ["10.1.2.3"]);
    for (const host of ["sixth.ssrf.test", "never-asked.ssrf.test", "127.0.0.1"]) {
      const sixth = await call("POST", "/v1/webhooks", { url: urlFor(host), events: ["verdict.new"] }, own);
      expect(sixth).toEqual({ status: 409, body: { detail: { error: "webhook_limit_reached", message: expect.any(String), limit: 5 } } });
    }
    expect(dns.asked).not.toContain("sixth.ssrf.test");
    expect(dns.asked).not.toContain("never-asked.ssrf.test");
    // Below the limit again, the same name is looked up and refused as before.
    expect((await call("DELETE", `/v1/webhooks/${ids[0] ?? ""}`, undefined, own)).status).toBe(200);
    const refused = await call("POST", "/v1/webhooks", { url: urlFor("sixth.ssrf.test"), events: ["verdict.new"] }, own);
    expect(refused).toMatchObject({ status: 422, body: { detail: [{ loc: ["body", "url"], type: "url_host_not_public" }] } });
    expect(dns.asked).toContain("sixth.ssrf.test");
  });

  it("a name that does not resolve is answered exactly as one that resolves to a private address, so no internal name can be probed", async () => {
    dns.records.set("internal.ssrf.test", ["10.1.2.3"]);
    const internal = await expectRegistrationRefused("internal.ssrf.test", "url_host_not_public");
    const missing = await expectRegistrationRefused("missing.ssrf.test", "url_host_not_public");
    expect(missing).toEqual(internal);
  });
});
