import { describe, expect, it } from "vitest";
import { acceptEvent, applyOutcome, dueDeliveries, initialState, setActive, type SubscriptionState } from "../../../src/domain/webhooks/delivery-state.js";
import type { DeliveryOutcome } from "../../../src/domain/webhooks/outcome.js";
import { T0, subscription, verdictEvent } from "./fixtures.js";

const fail500: DeliveryOutcome = { kind: "failure", statusCode: 500, error: "http_status", durationMs: 5 };

/** One event accepted and its first attempt failed `times` times over separate events. */
function failing(times: number): SubscriptionState {
  let state = initialState(subscription());
  for (let i = 0; i < times; i++) {
    const result = acceptEvent(state, verdictEvent(), T0);
    if (!result.accepted) throw new Error(result.reason);
    state = applyOutcome(result.state, result.delivery.deliveryId, fail500, T0).state;
  }
  return state;
}

/**
 * PATCH {is_active} re-enables or pauses (DECISIONS 5). A PATCH that changes nothing must not
 * rewrite the counters: `failures_since_success` counts failures since the last success, and
 * SPEC's "10 consecutive failures disable" must hold for a client that keeps sending
 * `{is_active: true}` (a reconciler that "ensures" its webhook is on).
 */
describe("PATCH is_active that changes nothing", () => {
  it("true on an active subscription keeps failures_since_success and its pending retries", () => {
    const state = failing(7);
    expect(state.subscription).toMatchObject({ isActive: true, failuresSinceSuccess: 7 });
    const next = setActive(state, true, T0 + 1);
    expect(next.subscription).toMatchObject({ isActive: true, failuresSinceSuccess: 7 });
    expect(next.pending).toEqual(state.pending);
  });

  it("an 'ensure active' PATCH between failures cannot keep a failing receiver from being disabled", () => {
    let state = failing(9);
    state = setActive(state, true, T0 + 1);
    const result = acceptEvent(state, verdictEvent(), T0 + 2);
    if (!result.accepted) throw new Error(result.reason);
    const due = dueDeliveries(result.state, T0 + 2);
    const last = due.at(-1);
    if (last === undefined) throw new Error("nothing due");
    const applied = applyOutcome(result.state, last.deliveryId, fail500, T0 + 2);
    expect(applied.disabled).toBe(true);
    expect(applied.state.subscription).toMatchObject({ isActive: false, disabledReason: "consecutive_failures", failuresSinceSuccess: 10 });
  });

  it("false on a subscription the failures disabled keeps the reason it was disabled for", () => {
    const disabled = failing(10);
    expect(disabled.subscription).toMatchObject({ isActive: false, disabledReason: "consecutive_failures" });
    const next = setActive(disabled, false, T0 + 1);
    expect(next.subscription).toMatchObject({ isActive: false, disabledReason: "consecutive_failures", failuresSinceSuccess: 10 });
  });

  it("still re-enables an inactive subscription with the count reset, and pauses an active one", () => {
    const enabled = setActive(failing(10), true, T0 + 1);
    expect(enabled.subscription).toMatchObject({ isActive: true, disabledReason: null, failuresSinceSuccess: 0 });
    const paused = setActive(enabled, false, T0 + 2);
    expect(paused.subscription).toMatchObject({ isActive: false, disabledReason: "paused" });
  });
});
