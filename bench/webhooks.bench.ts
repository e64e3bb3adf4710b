import { randomBytes } from "node:crypto";
import { Agent, request } from "node:https";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { acceptEvent, initialState, type SubscriptionState } from "../src/domain/webhooks/delivery-state.js";
import type { WebhookEvent } from "../src/domain/webhooks/webhook-body.js";
import { generateSecret } from "../src/domain/webhooks/secret.js";
import { createSubscription } from "../src/domain/webhooks/subscription.js";
import { createDeliveryAgent } from "../src/webhook-delivery/delivery-agent.js";
import { createHttpDeliverer, type Deliver } from "../src/webhook-delivery/http-deliverer.js";
import { runDue } from "../test/integration/webhooks/support/drive.js";
import { startHttpsReceiver, type HttpsReceiver } from "../test/integration/webhooks/support/receiver.js";
import { createTestPki } from "../test/integration/webhooks/support/tls.js";
import { report, result, type BenchResult } from "./result.js";

/**
 * Issue 9: one event fanned out to 1,000 subscriptions against a local HTTPS receiver, all
 * delivered within 5 s with no loss; memory flat over 100,000 deliveries. Baseline in the same
 * run: the same 1,000 POSTs through bare node:https (no SSRF filter, no signing, no state).
 */
const FAN_OUT = 1_000;
const SOCKETS = 64;
const TOTAL_DELIVERIES = 100_000;
const MEMORY_SUBSCRIPTIONS = 100;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

let eventSeq = 0;
function event(): WebhookEvent {
  eventSeq++;
  return {
    id: `evt_${eventSeq}`,
    type: "verdict.new",
    timestamp: new Date().toISOString(),
    data: { ruling: "BUY", composite_score: 0.42, confidence: 0.7, regime: "BULL_TRENDING" },
  };
}

function subscriptions(count: number, url: string): SubscriptionState[] {
  return Array.from({ length: count }, (_, i) =>
    initialState(
      createSubscription({ id: `wh_${i}`, ownerKeyId: `key_${i}`, url, events: ["verdict.new"], secret: generateSecret(randomBytes), now: Date.now() }),
    ),
  );
}

/** Every subscription takes the event and sends it; returns states and the number delivered. */
async function fanOut(states: SubscriptionState[], deliver: Deliver): Promise<[SubscriptionState[], number]> {
  const e = event();
  const now = Date.now();
  const runs = await Promise.all(
    states.map((s) => {
      const accepted = acceptEvent(s, e, now);
      return runDue(accepted.state, deliver, now);
    }),
  );
  const delivered = runs.reduce((n, r) => n + r.outcomes.filter((o) => o.kind === "success").length, 0);
  return [runs.map((r) => r.state), delivered];
}

async function bareFanOut(receiver: HttpsReceiver, ca: string): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: SOCKETS, ca });
  const body = JSON.stringify({ event: "verdict.new", timestamp: new Date().toISOString(), data: {} });
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request(receiver.url(), { method: "POST", agent, headers: { "content-type": "application/json" } }, (res) => {
        res.resume();
        res.on("end", () => resolve());
      });
      req.on("error", reject);
      req.end(body);
    });
  await Promise.all(Array.from({ length: 50 }, one)); // warm the pool
  const started = performance.now();
  await Promise.all(Array.from({ length: FAN_OUT }, one));
  const ms = performance.now() - started;
  agent.destroy();
  return ms;
}

export async function run(): Promise<BenchResult[]> {
  const pki = createTestPki();
  const receiver = await startHttpsReceiver(pki);
  const agent = createDeliveryAgent({ allowPrivateTargets: true, ca: pki.ca, maxSockets: SOCKETS });
  const deliver = createHttpDeliverer({ agent });
  try {
    const baselineMs = await bareFanOut(receiver, pki.ca);

    const states = subscriptions(FAN_OUT, receiver.url());
    await fanOut(states.slice(0, 50), deliver); // warm the pool like the baseline
    receiver.received.length = 0;
    const started = performance.now();
    const [, delivered] = await fanOut(states, deliver);
    const fanOutMs = performance.now() - started;
    const lost = FAN_OUT - Math.min(delivered, receiver.received.length);

    // Memory: 100,000 deliveries through 100 subscriptions; the receiver keeps nothing.
    receiver.received.length = 0;
    const store = receiver.received;
    store.push = (...items) => items.length; // count-only, so the receiver's memory does not grow
    let memStates = subscriptions(MEMORY_SUBSCRIPTIONS, receiver.url());
    let total = 0;
    let okTotal = 0;
    let heapAtWarm = 0;
    const warmAt = 30_000;
    const memStarted = performance.now();
    while (total < TOTAL_DELIVERIES) {
      let ok: number;
      [memStates, ok] = await fanOut(memStates, deliver);
      total += MEMORY_SUBSCRIPTIONS;
      okTotal += ok;
      if (total === warmAt) heapAtWarm = heapMb();
    }
    const memMs = performance.now() - memStarted;
    const heapAtEnd = heapMb();
    const growth = heapAtEnd - heapAtWarm;
    process.stderr.write(
      `fan-out ${FAN_OUT} in ${fanOutMs.toFixed(0)} ms (bare ${baselineMs.toFixed(0)} ms); ` +
        `${TOTAL_DELIVERIES} deliveries in ${(memMs / 1000).toFixed(1)} s, ${okTotal} ok, ` +
        `heap ${heapAtWarm.toFixed(1)} MB at ${warmAt} → ${heapAtEnd.toFixed(1)} MB\n`,
    );

    return [
      result("webhooks fan-out 1,000 subscriptions", fanOutMs, "ms", "<= 5000 ms, no loss", fanOutMs <= 5_000 && lost === 0, baselineMs),
      result("webhooks fan-out lost deliveries", lost, "deliveries", "= 0", lost === 0),
      result(
        "webhooks heap growth 30k→100k deliveries",
        growth,
        "MB",
        "<= 5 MB, all delivered",
        growth <= 5 && okTotal === TOTAL_DELIVERIES,
      ),
      report("webhooks sustained delivery rate", (TOTAL_DELIVERIES / memMs) * 1000, "deliveries/s"),
    ];
  } finally {
    agent.destroy();
    await receiver.stop();
  }
}
