import { randomBytes } from "node:crypto";
import type { Agent } from "node:https";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildTestRequest } from "../../../src/domain/webhooks/delivery-request.js";
import {
  acceptEvent,
  initialState,
  nextDueAt,
  rotateSecret,
  setActive,
  type SubscriptionState,
} from "../../../src/domain/webhooks/delivery-state.js";
import type { WebhookEvent } from "../../../src/domain/webhooks/webhook-body.js";
import { generateSecret } from "../../../src/domain/webhooks/secret.js";
import { createSubscription } from "../../../src/domain/webhooks/subscription.js";
import { verifyServiceSignature } from "../../support/webhooks/verification.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { createDeliveryAgent } from "../../../src/webhook-delivery/delivery-agent.js";
import { createHttpDeliverer, type Deliver } from "../../../src/webhook-delivery/http-deliverer.js";
import { runDue } from "./support/drive.js";
import { startHttpsReceiver, type HttpsReceiver, type ReceivedDelivery } from "./support/receiver.js";
import { createTestPki, type TestPki } from "./support/tls.js";

let pki: TestPki;
let receiver: HttpsReceiver;
let agent: Agent;
let deliver: Deliver;
let clock: ManualClock;
let eventCounter = 0;

beforeAll(async () => {
  pki = createTestPki();
  receiver = await startHttpsReceiver(pki);
  // WEBHOOK_ALLOW_PRIVATE_TARGETS=true equivalent, trusting only the test CA.
  agent = createDeliveryAgent({ allowPrivateTargets: true, ca: pki.ca });
  deliver = createHttpDeliverer({ agent, timeoutMs: 400 });
});

afterAll(async () => {
  agent.destroy();
  await receiver.stop();
});

beforeEach(() => {
  receiver.received.length = 0;
  receiver.respond = () => ({ status: 200 });
  // Near wall time, so the official library (which reads Date.now()) accepts the timestamps.
  clock = new ManualClock(Date.now());
});

function event(): WebhookEvent {
  return {
    id: `evt_${++eventCounter}`,
    type: "regime.change",
    timestamp: new Date(clock.now()).toISOString(),
    data: { from_regime: "RISK_ON", to_regime: "HIGH_VOLATILITY", confidence: 0.81 },
  };
}

function newState(url = receiver.url()): SubscriptionState {
  const sub = createSubscription({
    id: `wh_${eventCounter}`,
    ownerKeyId: "key_1",
    url,
    events: ["regime.change"],
    secret: generateSecret(randomBytes),
    now: clock.now(),
  });
  return initialState(sub);
}

function accept(state: SubscriptionState): SubscriptionState {
  const result = acceptEvent(state, event(), clock.now());
  expect(result.accepted).toBe(true);
  return result.state;
}

/** Runs the schedule on the test clock until nothing is pending; returns attempt offsets in seconds. */
async function runToEnd(start: SubscriptionState): Promise<{ state: SubscriptionState; offsets: number[]; errors: string[] }> {
  const t0 = clock.now();
  let state = start;
  const offsets: number[] = [];
  const errors: string[] = [];
  for (let due = nextDueAt(state); due !== null; due = nextDueAt(state)) {
    clock.set(Math.max(due, clock.now()));
    const run = await runDue(state, deliver, clock.now());
    state = run.state;
    for (const o of run.outcomes) {
      offsets.push((clock.now() - t0) / 1000);
      errors.push(o.kind === "success" ? "ok" : o.error);
    }
  }
  return { state, offsets, errors };
}

function expectSigned(delivery: ReceivedDelivery, secret: string): void {
  const headers = delivery.headers as Record<string, string>;
  expect(verifyServiceSignature(delivery.body, headers["x-service-signature"], secret)).toBe(true);
  expect(new Webhook(secret).verify(delivery.body, headers)).toEqual(JSON.parse(delivery.body));
}

describe("delivery to a real HTTPS receiver", () => {
  it("a 2xx delivers once, signed both ways, with the SPEC envelope and headers", async () => {
    receiver.respond = () => ({ status: 202 });
    const start = accept(newState());
    const { state, offsets } = await runToEnd(start);
    expect(offsets).toEqual([0]);
    const [got] = receiver.received;
    if (got === undefined) throw new Error("nothing received");
    expectSigned(got, state.subscription.secret);
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["x-service-event"]).toBe("regime.change");
    expect(got.headers["x-service-delivery"]).toBe(got.headers["webhook-id"]);
    expect(Object.keys(JSON.parse(got.body) as object)).toEqual(["event", "timestamp", "data"]);
    expect(state.subscription.failuresSinceSuccess).toBe(0);
    expect(state.subscription.lastTriggeredAt).toBe(clock.now());
  });

  it("a 500 retries at +5 s, +25 s, +125 s with the same delivery id and body, each signed", async () => {
    receiver.respond = () => ({ status: 500 });
    const { state, offsets, errors } = await runToEnd(accept(newState()));
    expect(offsets).toEqual([0, 5, 30, 155]);
    expect(errors).toEqual(["http_status", "http_status", "http_status", "http_status"]);
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((r) => r.headers["x-service-delivery"])).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    for (const r of receiver.received) expectSigned(r, state.subscription.secret);
    expect(state.subscription.failuresSinceSuccess).toBe(4);
  });

  it("recovers when the receiver comes back: the retry after a failure delivers", async () => {
    receiver.respond = (_r, i) => ({ status: i < 2 ? 503 : 200 });
    const { state, offsets, errors } = await runToEnd(accept(newState()));
    expect(offsets).toEqual([0, 5, 30]);
    expect(errors).toEqual(["http_status", "http_status", "ok"]);
    expect(state.subscription.failuresSinceSuccess).toBe(0);
  });

  it("a timeout fails and retries on schedule", async () => {
    receiver.respond = () => ({ status: 200, delayMs: 1_500 });
    const { offsets, errors } = await runToEnd(accept(newState()));
    expect(offsets).toEqual([0, 5, 30, 155]);
    expect(errors).toEqual(["timeout", "timeout", "timeout", "timeout"]);
  });

  it("a redirect is not followed: it fails and retries on schedule", async () => {
    receiver.respond = (r) => (r.path === "/hook" ? { status: 302, headers: { location: "/elsewhere" } } : { status: 200 });
    const { offsets, errors } = await runToEnd(accept(newState()));
    expect(offsets).toEqual([0, 5, 30, 155]);
    expect(errors).toEqual(["redirect", "redirect", "redirect", "redirect"]);
    expect(receiver.received.every((r) => r.path === "/hook")).toBe(true);
  });

  it("connection refused fails and retries on schedule", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { offsets, errors } = await runToEnd(accept(newState(`https://127.0.0.1:${port}/hook`)));
    expect(offsets).toEqual([0, 5, 30, 155]);
    expect(errors).toEqual(["connection_refused", "connection_refused", "connection_refused", "connection_refused"]);
  });

  it("a receiver answering 410 disables the subscription at once", async () => {
    receiver.respond = () => ({ status: 410 });
    const { state, offsets } = await runToEnd(accept(accept(newState())));
    expect(offsets).toEqual([0, 0]);
    expect(state.subscription).toMatchObject({ isActive: false, disabledReason: "gone" });
    expect(nextDueAt(state)).toBeNull();
  });

  it("the 10th consecutive failure disables; PATCH re-enables, resets and delivers again", async () => {
    receiver.respond = () => ({ status: 500 });
    let state = newState();
    for (let i = 0; i < 3; i++) state = accept(state);
    ({ state } = await runToEnd(state));
    expect(receiver.received).toHaveLength(10);
    expect(state.subscription).toMatchObject({ isActive: false, failuresSinceSuccess: 10 });
    expect(acceptEvent(state, event(), clock.now()).accepted).toBe(false);

    receiver.respond = () => ({ status: 200 });
    state = setActive(state, true, clock.now());
    expect(state.subscription.failuresSinceSuccess).toBe(0);
    const { offsets, errors } = await runToEnd(accept(state));
    expect(offsets).toEqual([0]);
    expect(errors).toEqual(["ok"]);
    expect(receiver.received).toHaveLength(11);
  });

  it("a host restart between retries delivers exactly the remaining attempts", async () => {
    receiver.respond = () => ({ status: 500 });
    let state = accept(newState());
    for (const at of [0, 5_000]) state = (await runDue(state, deliver, clock.now() + at)).state;
    expect(receiver.received).toHaveLength(2);
    // The actor's persisted state, read back by a new host with a new agent.
    const persisted = JSON.stringify(state);
    const freshAgent = createDeliveryAgent({ allowPrivateTargets: true, ca: pki.ca });
    try {
      const freshDeliver = createHttpDeliverer({ agent: freshAgent, timeoutMs: 400 });
      let resumed = JSON.parse(persisted) as SubscriptionState;
      clock.advance(3_600_000); // down for an hour: the overdue retry goes out once on resume
      for (let due = nextDueAt(resumed); due !== null; due = nextDueAt(resumed)) {
        clock.set(Math.max(due, clock.now()));
        resumed = (await runDue(resumed, freshDeliver, clock.now())).state;
      }
      expect(receiver.received).toHaveLength(4);
      expect(resumed.records.map((r) => r.attempt)).toEqual([1, 2, 3, 4]);
    } finally {
      freshAgent.destroy();
    }
  });

  it("during a secret rotation the official library verifies with either secret", async () => {
    let state = newState();
    const oldSecret = state.subscription.secret;
    const newSecret = generateSecret(randomBytes);
    state = rotateSecret(state, newSecret, clock.now());
    await runToEnd(accept(state));
    const [got] = receiver.received;
    if (got === undefined) throw new Error("nothing received");
    const headers = got.headers as Record<string, string>;
    // verify returns the payload it checked.
    expect(new Webhook(oldSecret).verify(got.body, headers)).toEqual(JSON.parse(got.body));
    expect(new Webhook(newSecret).verify(got.body, headers)).toEqual(JSON.parse(got.body));
    expect(verifyServiceSignature(got.body, headers["x-service-signature"], newSecret)).toBe(true);
  });

  it("reads at most 64 KiB of a huge response and still counts the 2xx", async () => {
    receiver.respond = () => ({ status: 200, bodyBytes: 20 * 1024 * 1024 });
    const started = Date.now();
    const outcome = await deliver(buildTestRequest(newState().subscription, "big", clock.now()));
    expect(outcome).toMatchObject({ kind: "success", statusCode: 200 });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("stops reading at 64 KiB: a receiver streaming an endless body does not hold the attempt", async () => {
    receiver.respond = () => ({ status: 200, bodyBytes: 256 * 1024, neverEnd: true });
    const patient = createHttpDeliverer({ agent, timeoutMs: 5_000 });
    const started = Date.now();
    const outcome = await patient(buildTestRequest(newState().subscription, "endless", clock.now()));
    expect(outcome).toMatchObject({ kind: "success", statusCode: 200 });
    // Reading on would wait for the 5 s timeout; the cap returns as soon as 64 KiB arrived.
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("a test delivery is signed, sent once and leaves the subscription untouched", async () => {
    receiver.respond = () => ({ status: 500 });
    const state = newState();
    const outcome = await deliver(buildTestRequest(state.subscription, "t1", clock.now()));
    expect(outcome).toMatchObject({ kind: "failure", statusCode: 500 });
    const [got] = receiver.received;
    if (got === undefined) throw new Error("nothing received");
    expectSigned(got, state.subscription.secret);
    expect(JSON.parse(got.body)).toMatchObject({ event: "webhook.test", data: { webhook_id: state.subscription.id } });
    expect(state.subscription.failuresSinceSuccess).toBe(0);
  });

  it("a certificate from an untrusted CA is a TLS failure", async () => {
    const strange = createDeliveryAgent({ allowPrivateTargets: true, ca: createTestPki().ca });
    try {
      const outcome = await createHttpDeliverer({ agent: strange })(buildTestRequest(newState().subscription, "t", clock.now()));
      expect(outcome).toMatchObject({ kind: "failure", error: "tls_error", statusCode: null });
    } finally {
      strange.destroy();
    }
  });
});
