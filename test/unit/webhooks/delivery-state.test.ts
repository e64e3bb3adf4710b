import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { buildDeliveryRequest, buildTestRequest } from "../../../src/domain/webhooks/delivery-request.js";
import {
  acceptEvent,
  applyOutcome,
  dueDeliveries,
  initialState,
  nextDueAt,
  rotateSecret,
  setActive,
  type SubscriptionState,
} from "../../../src/domain/webhooks/delivery-state.js";
import type { DeliveryOutcome } from "../../../src/domain/webhooks/outcome.js";
import { generateSecret } from "../../../src/domain/webhooks/secret.js";
import { MAX_PREVIOUS_SECRETS } from "../../../src/domain/webhooks/limits.js";
import { subscriptionSchema } from "../../../src/webhook-delivery/state-schema.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { verifyServiceSignature, verifyStandardSignature } from "../../support/webhooks/verification.js";
import { T0, subscription, verdictEvent } from "./fixtures.js";

const fail500: DeliveryOutcome = { kind: "failure", statusCode: 500, error: "http_status", durationMs: 5 };
const ok200: DeliveryOutcome = { kind: "success", statusCode: 200, durationMs: 5 };
const gone410: DeliveryOutcome = { kind: "failure", statusCode: 410, error: "http_status", durationMs: 5 };

function accepted(state: SubscriptionState, now: number, id?: string): SubscriptionState {
  const result = acceptEvent(state, verdictEvent(id), now);
  if (!result.accepted) throw new Error(`not accepted: ${result.reason}`);
  return result.state;
}

/** Attempts every due delivery with `outcome`; returns the new state and how many were attempted. */
function attemptDue(state: SubscriptionState, outcome: DeliveryOutcome, now: number): [SubscriptionState, number] {
  const due = dueDeliveries(state, now);
  let next = state;
  for (const d of due) next = applyOutcome(next, d.deliveryId, outcome, now).state;
  return [next, due.length];
}

describe("delivery state machine", () => {
  it("delivers at once, then retries exactly at +5 s, +25 s, +125 s and stops", () => {
    const clock = new ManualClock(T0);
    let state = accepted(initialState(subscription()), clock.now());
    const attemptTimes: number[] = [];
    for (let guard = 0; guard < 1000 && nextDueAt(state) !== null; guard++) {
      const due = nextDueAt(state) ?? 0;
      // Nothing is due a millisecond early.
      expect(dueDeliveries(state, due - 1)).toHaveLength(0);
      clock.set(due);
      attemptTimes.push(clock.now() - T0);
      [state] = attemptDue(state, fail500, clock.now());
    }
    expect(attemptTimes).toEqual([0, 5_000, 30_000, 155_000]);
    expect(state.pending).toHaveLength(0);
    expect(state.subscription.failuresSinceSuccess).toBe(4);
    expect(state.subscription.isActive).toBe(true);
    expect(state.records.map((r) => [r.attempt, r.next])).toEqual([
      [1, "retry"],
      [2, "retry"],
      [3, "retry"],
      [4, "exhausted"],
    ]);
  });

  it("a success resets failures_since_success and records last_triggered_at", () => {
    let state = accepted(initialState(subscription()), T0);
    [state] = attemptDue(state, fail500, T0);
    expect(state.subscription.failuresSinceSuccess).toBe(1);
    [state] = attemptDue(state, ok200, T0 + 5_000);
    expect(state.subscription.failuresSinceSuccess).toBe(0);
    expect(state.subscription.lastTriggeredAt).toBe(T0 + 5_000);
    expect(nextDueAt(state)).toBeNull();
  });

  it("disables on the 10th consecutive failed attempt and cancels what is pending", () => {
    const clock = new ManualClock(T0);
    let state = initialState(subscription());
    // Three events fail all four attempts (12 failures would be needed); the 10th disables.
    for (const id of ["a", "b", "c"]) state = accepted(state, clock.now(), id);
    let attempts = 0;
    while (nextDueAt(state) !== null) {
      clock.set(nextDueAt(state) ?? 0);
      for (const d of dueDeliveries(state, clock.now())) {
        const applied = applyOutcome(state, d.deliveryId, fail500, clock.now());
        state = applied.state;
        if (applied.step === null) continue;
        attempts++;
        expect(applied.disabled).toBe(attempts === 10);
        expect(state.subscription.isActive).toBe(attempts < 10);
      }
    }
    expect(attempts).toBe(10);
    expect(state.subscription).toMatchObject({ isActive: false, disabledReason: "consecutive_failures", failuresSinceSuccess: 10 });
    expect(state.pending).toHaveLength(0);
    expect(state.records.filter((r) => r.next === "cancelled")).toHaveLength(2);
    // Inactive: new events are not accepted, nothing is due.
    expect(acceptEvent(state, verdictEvent(), clock.now())).toMatchObject({ accepted: false, reason: "not_subscribed" });
    // PATCH is_active true re-enables and resets the count.
    state = setActive(state, true, clock.now());
    expect(state.subscription).toMatchObject({ isActive: true, disabledReason: null, failuresSinceSuccess: 0 });
    expect(acceptEvent(state, verdictEvent(), clock.now()).accepted).toBe(true);
  });

  it("never has more attempts in flight than failures left before the auto-disable", () => {
    let state = initialState(subscription());
    for (let i = 0; i < 12; i++) state = accepted(state, T0);
    expect(dueDeliveries(state, T0)).toHaveLength(10);
    state = { ...state, subscription: { ...state.subscription, failuresSinceSuccess: 8 } };
    expect(dueDeliveries(state, T0).map((d) => d.sequence)).toEqual([0, 1]);
    state = { ...state, subscription: { ...state.subscription, failuresSinceSuccess: 9 } };
    expect(dueDeliveries(state, T0)).toHaveLength(1);
  });

  it("a 410 disables at once, without retry", () => {
    let state = accepted(initialState(subscription()), T0);
    state = accepted(state, T0);
    const first = dueDeliveries(state, T0)[0];
    if (first === undefined) throw new Error("nothing due");
    const applied = applyOutcome(state, first.deliveryId, gone410, T0);
    expect(applied.step).toEqual({ kind: "gone" });
    expect(applied.disabled).toBe(true);
    expect(applied.state.subscription).toMatchObject({ isActive: false, disabledReason: "gone", failuresSinceSuccess: 1 });
    expect(applied.state.pending).toHaveLength(0);
    expect(nextDueAt(applied.state)).toBeNull();
  });

  it("drops a bus redelivery of the same event, pending or finished (idempotency key = delivery id)", () => {
    let state = accepted(initialState(subscription()), T0, "evt_dup");
    expect(acceptEvent(state, verdictEvent("evt_dup"), T0)).toMatchObject({ accepted: false, reason: "duplicate" });
    [state] = attemptDue(state, ok200, T0);
    expect(acceptEvent(state, verdictEvent("evt_dup"), T0 + 1)).toMatchObject({ accepted: false, reason: "duplicate" });
  });

  it("ignores events the subscription did not ask for", () => {
    const state = initialState(subscription(["regime.change"]));
    expect(acceptEvent(state, verdictEvent(), T0)).toMatchObject({ accepted: false, reason: "not_subscribed" });
  });

  it("keeps the delivery id and the exact body across retries; re-stamps the signature time", () => {
    let state = accepted(initialState(subscription()), T0);
    const first = dueDeliveries(state, T0)[0];
    if (first === undefined) throw new Error("nothing due");
    const req1 = buildDeliveryRequest(state.subscription, first, T0);
    [state] = attemptDue(state, fail500, T0);
    const second = dueDeliveries(state, T0 + 5_000)[0];
    if (second === undefined) throw new Error("retry not due");
    const req2 = buildDeliveryRequest(state.subscription, second, T0 + 5_000);
    expect(req2.body).toBe(req1.body);
    expect(req2.headers["x-service-delivery"]).toBe(req1.headers["x-service-delivery"]);
    expect(req2.headers["webhook-timestamp"]).toBe(String(Math.floor((T0 + 5_000) / 1000)));
    expect(JSON.parse(req1.body)).toEqual({
      event: "verdict.new",
      timestamp: new Date(T0).toISOString(),
      data: { ruling: "BUY", composite_score: 0.42, confidence: 0.7, regime: "BULL_TRENDING" },
    });
  });

  it("resumes after a restart: the persisted JSON state yields exactly the remaining attempts", () => {
    let state = accepted(initialState(subscription()), T0);
    [state] = attemptDue(state, fail500, T0);
    [state] = attemptDue(state, fail500, T0 + 5_000);
    const restored = JSON.parse(JSON.stringify(state)) as SubscriptionState;
    expect(nextDueAt(restored)).toBe(T0 + 30_000);
    // Host was down long past the due time: the overdue attempt goes out once on resume.
    let resumed = restored;
    let count = 0;
    for (const at of [T0 + 90_000, T0 + 90_000 + 125_000, T0 + 10_000_000]) {
      let n: number;
      [resumed, n] = attemptDue(resumed, fail500, at);
      count += n;
    }
    expect(count).toBe(2);
    expect(resumed.records.map((r) => r.attempt)).toEqual([1, 2, 3, 4]);
  });

  it("pausing cancels pending retries; a deleted subscription simply drops its state", () => {
    let state = accepted(initialState(subscription()), T0);
    [state] = attemptDue(state, fail500, T0);
    state = setActive(state, false, T0 + 1);
    expect(state.subscription).toMatchObject({ isActive: false, disabledReason: "paused" });
    expect(nextDueAt(state)).toBeNull();
    expect(state.records.at(-1)).toMatchObject({ next: "cancelled", error: "subscription_inactive" });
  });

  it("an outcome for a delivery cancelled while in flight changes nothing", () => {
    let state = accepted(initialState(subscription()), T0);
    const d = dueDeliveries(state, T0)[0];
    if (d === undefined) throw new Error("nothing due");
    state = setActive(state, false, T0);
    const applied = applyOutcome(state, d.deliveryId, fail500, T0);
    expect(applied.step).toBeNull();
    expect(applied.state).toBe(state);
  });

  it("signs with both secrets for 24 h after a rotation, then with the new one only", () => {
    let state = accepted(initialState(subscription()), T0);
    const oldSecret = state.subscription.secret;
    const newSecret = generateSecret(randomBytes);
    state = rotateSecret(state, newSecret, T0);
    const d = dueDeliveries(state, T0)[0];
    if (d === undefined) throw new Error("nothing due");
    const during = buildDeliveryRequest(state.subscription, d, T0 + 1_000);
    expect(verifyServiceSignature(during.body, during.headers["x-service-signature"], newSecret)).toBe(true);
    expect(verifyStandardSignature(during.body, during.headers, oldSecret, T0 + 1_000).ok).toBe(true);
    expect(verifyStandardSignature(during.body, during.headers, newSecret, T0 + 1_000).ok).toBe(true);
    const after = buildDeliveryRequest(state.subscription, d, T0 + 24 * 3600_000);
    expect(after.headers["webhook-signature"]?.split(" ")).toHaveLength(1);
    expect(verifyStandardSignature(after.body, after.headers, oldSecret, T0 + 24 * 3600_000).ok).toBe(false);
  });

  it("a second rotation inside the first one's 24 h keeps the original secret signing until its own 24 h end", () => {
    // A client that retries rotate-secret after a lost response rotates twice; the first
    // response promised the original secret 24 h, and its receiver may still hold it.
    let state = accepted(initialState(subscription()), T0);
    const original = state.subscription.secret;
    const first = generateSecret(randomBytes);
    const second = generateSecret(randomBytes);
    state = rotateSecret(state, first, T0);
    state = rotateSecret(state, second, T0 + 60_000);
    const d = dueDeliveries(state, T0 + 60_000)[0];
    if (d === undefined) throw new Error("nothing due");
    const at = T0 + 23 * 3600_000;
    const during = buildDeliveryRequest(state.subscription, d, at);
    for (const secret of [original, first, second]) expect(verifyStandardSignature(during.body, during.headers, secret, at).ok).toBe(true);
    // The original's 24 h end first; the first replacement's a minute later.
    const later = T0 + 24 * 3600_000 + 30_000;
    const after = buildDeliveryRequest(state.subscription, d, later);
    expect(verifyStandardSignature(after.body, after.headers, original, later).ok).toBe(false);
    expect(verifyStandardSignature(after.body, after.headers, first, later).ok).toBe(true);
  });

  it("keeps at most three replaced secrets, and drops expired ones at the next rotation", () => {
    let state = accepted(initialState(subscription()), T0);
    for (let i = 0; i < 5; i++) state = rotateSecret(state, generateSecret(randomBytes), T0 + i * 1_000);
    expect(state.subscription.previousSecrets).toHaveLength(MAX_PREVIOUS_SECRETS);
    state = rotateSecret(state, generateSecret(randomBytes), T0 + 25 * 3600_000);
    expect(state.subscription.previousSecrets).toHaveLength(1);
  });

  it("reads a subscription stored with one previous secret (before the list) as a list of it", () => {
    const { previousSecrets: _list, ...rest } = rotateSecret(initialState(subscription()), generateSecret(randomBytes), T0).subscription;
    const legacy = { ...rest, previousSecret: { secret: "whsec_old", expiresAt: T0 + 1 } };
    expect(subscriptionSchema.parse(legacy).previousSecrets).toEqual([{ secret: "whsec_old", expiresAt: T0 + 1 }]);
    expect(subscriptionSchema.parse({ ...rest, previousSecret: null }).previousSecrets).toEqual([]);
  });

  it("test requests are signed webhook.test events outside the state machine", () => {
    const sub = subscription();
    const req = buildTestRequest(sub, "t1", T0);
    expect(JSON.parse(req.body)).toMatchObject({ event: "webhook.test", data: { webhook_id: "wh_1" } });
    expect(req.headers["x-service-event"]).toBe("webhook.test");
    expect(verifyServiceSignature(req.body, req.headers["x-service-signature"], sub.secret)).toBe(true);
  });
});
