import type { Agent } from "node:https";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DeliveryRequest } from "../../../src/domain/webhooks/delivery-request.js";
import { createDeliveryAgent } from "../../../src/webhook-delivery/delivery-agent.js";
import { createHttpDeliverer, type Deliver } from "../../../src/webhook-delivery/http-deliverer.js";
import { checkWebhookTarget } from "../../../src/webhook-delivery/target-check.js";
import { dnsServerResolve } from "../../../src/webhook-delivery/resolver.js";
import { startDnsServer, type LocalDnsServer } from "../../support/dns-server.js";
import { startHttpsReceiver, type HttpsReceiver } from "./support/receiver.js";
import { createTestPki, type TestPki } from "./support/tls.js";

/**
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=false: the production agent. It trusts the test CA so that a
 * refusal can only come from the address filter, never from TLS; and a test receiver listens
 * on 127.0.0.1 so a leak would show up as a received request.
 */
let pki: TestPki;
let receiver: HttpsReceiver;
let agent: Agent;
let deliver: Deliver;
let dnsServer: LocalDnsServer;

beforeAll(async () => {
  pki = createTestPki();
  receiver = await startHttpsReceiver(pki);
  dnsServer = await startDnsServer();
  agent = createDeliveryAgent({ allowPrivateTargets: false, ca: pki.ca, resolve: dnsServerResolve([dnsServer.server]) });
  deliver = createHttpDeliverer({ agent, timeoutMs: 3_000 });
});

afterAll(async () => {
  agent.destroy();
  await receiver.stop();
  await dnsServer.stop();
});

beforeEach(() => {
  receiver.received.length = 0;
  dnsServer.records.clear();
  dnsServer.records.set("localhost", ["127.0.0.1", "::1"]);
});

const post = (url: string): DeliveryRequest => ({ url, body: "{}", headers: { "content-type": "application/json" } });

describe("SSRF refusal at delivery (production agent)", () => {
  it.each([
    ["loopback", () => `https://127.0.0.1:${receiver.port}/hook`],
    ["private", () => "https://10.0.0.1/hook"],
    ["cloud metadata", () => "https://169.254.169.254/latest/meta-data"],
    ["CGNAT", () => "https://100.64.0.1/hook"],
    ["IPv6 loopback", () => `https://[::1]:${receiver.port}/hook`],
    ["IPv4-mapped IPv6 loopback", () => `https://[::ffff:127.0.0.1]:${receiver.port}/hook`],
    ["localhost (through DNS)", () => `https://localhost:${receiver.port}/hook`],
  ])("refuses a %s target without connecting", async (_name, url) => {
    const outcome = await deliver(post(url()));
    expect(outcome).toMatchObject({ kind: "failure", statusCode: null, error: "target_refused" });
    expect(outcome.durationMs).toBeLessThan(1_000);
    expect(receiver.received).toHaveLength(0);
  });

  it("refuses a hostname that resolves to a private address", async () => {
    dnsServer.records.set("hooks.test.example", ["127.0.0.1"]);
    const outcome = await deliver(post(`https://hooks.test.example:${receiver.port}/hook`));
    expect(outcome).toMatchObject({ kind: "failure", error: "target_refused" });
    expect(receiver.received).toHaveLength(0);
  });

  it("refuses a name that passed registration but re-resolves to a private address at delivery", async () => {
    const url = `https://public.test.example:${receiver.port}/hook`;
    // Registration: the same DNS server answers with a public address, and the name is accepted.
    dnsServer.records.set("public.test.example", ["93.184.216.34"]);
    expect(await checkWebhookTarget(url, { allowPrivateTargets: false, resolve: dnsServerResolve([dnsServer.server]) })).toEqual({
      ok: true,
    });
    // Delivery: DNS now answers with loopback (DNS rebinding); the agent checks the new answer.
    dnsServer.records.set("public.test.example", ["127.0.0.1"]);
    expect(await deliver(post(url))).toMatchObject({ kind: "failure", error: "target_refused" });
    expect(receiver.received).toHaveLength(0);
  });

  it("refuses http:// before any connection", async () => {
    expect(await deliver(post(`http://127.0.0.1:${receiver.port}/hook`))).toMatchObject({
      kind: "failure",
      error: "target_refused",
    });
    expect(await checkWebhookTarget("http://example.com/hook", { allowPrivateTargets: false })).toEqual({
      ok: false,
      reason: "https_required",
    });
  });

  it("with private targets allowed (tests only) the same names deliver, so the refusals above are the filter's", async () => {
    const testAgent = createDeliveryAgent({ allowPrivateTargets: true, ca: pki.ca, resolve: dnsServerResolve([dnsServer.server]) });
    try {
      dnsServer.records.set("hooks.test.example", ["127.0.0.1"]);
      const allowed = createHttpDeliverer({ agent: testAgent });
      expect(await allowed(post(`https://hooks.test.example:${receiver.port}/hook`))).toMatchObject({ kind: "success" });
      expect(await allowed(post(`https://localhost:${receiver.port}/hook`))).toMatchObject({ kind: "success" });
      // Metadata stays refused even then.
      expect(await allowed(post("https://169.254.169.254/latest"))).toMatchObject({ error: "target_refused" });
      expect(receiver.received).toHaveLength(2);
    } finally {
      testAgent.destroy();
    }
  });
});
