import { describe, expect, it } from "vitest";
import {
  acceptEvent,
  applyOutcome,
  dueDeliveries,
  disableForKey,
  initialState,
  nextDueAt,
  nextWakeAt,
  noticeDue,
  noticeTried,
  setActive,
  type SubscriptionState,
} from "../../../src/domain/webhooks/delivery-state.js";
import type { DeliveryOutcome } from "../../../src/domain/webhooks/outcome.js";
import { NOTICE_HELD_BACK_WAIT_MS, NOTICE_MAX_AGE_MS, NOTICE_RETRY_DELAYS_MS, afterNoticeTry, noticeMail } from "../../../src/domain/webhooks/owner-notice.js";
import { T0, subscription, verdictEvent } from "./fixtures.js";

const gone410: DeliveryOutcome = { kind: "failure", statusCode: 410, error: "http_status", durationMs: 5 };
const fail500: DeliveryOutcome = { kind: "failure", statusCode: 500, error: "http_status", durationMs: 5 };

function accepted(state: SubscriptionState, now: number): SubscriptionState {
  const result = acceptEvent(state, verdictEvent(), now);
  if (!result.accepted) throw new Error(`not accepted: ${result.reason}`);
  return result.state;
}

/** Attempts every due delivery with `outcome` at `now`. */
function attempt(state: SubscriptionState, outcome: DeliveryOutcome, now: number): SubscriptionState {
  let next = state;
  for (const d of dueDeliveries(state, now)) next = applyOutcome(next, d.deliveryId, outcome, now).state;
  return next;
}

/** Runs attempts on their schedule, all failing with `outcome`, until no attempt is due. */
function failUntilIdle(start: SubscriptionState, outcome: DeliveryOutcome): SubscriptionState {
  let state = start;
  for (let due = nextDueAt(state); due !== null; due = nextDueAt(state)) state = attempt(state, outcome, due);
  return state;
}

describe("the owner's notice when delivery results disable a subscription", () => {
  it("is owed at once after a 410, and wakes the actor though nothing else is due", () => {
    const at = T0 + 1_000;
    const state = attempt(accepted(initialState(subscription()), at), gone410, at);
    expect(state.subscription).toMatchObject({ isActive: false, disabledReason: "gone" });
    expect(state.notice).toEqual({ reason: "gone", disabledAt: at, failedAttempts: 0, dueAt: at });
    expect(nextDueAt(state)).toBeNull();
    expect(nextWakeAt(state)).toBe(at);
    expect(noticeDue(state, at - 1)).toBeNull();
    expect(noticeDue(state, at)).toBe(state.notice);
  });

  it("is owed on the 10th consecutive failure, not before", () => {
    let state = initialState(subscription());
    for (let i = 0; i < 2; i++) state = accepted(state, T0);
    state = failUntilIdle(state, fail500);
    // Two events x four attempts: 8 failures, still active, nothing owed.
    expect(state.subscription).toMatchObject({ isActive: true, failuresSinceSuccess: 8 });
    expect(state.notice).toBeNull();
    const later = T0 + 3_600_000;
    state = failUntilIdle(accepted(state, later), fail500);
    expect(state.subscription).toMatchObject({ isActive: false, disabledReason: "consecutive_failures", failuresSinceSuccess: 10 });
    expect(state.notice).toMatchObject({ reason: "consecutive_failures", failedAttempts: 0 });
    expect(state.notice?.dueAt).toBe(state.notice?.disabledAt);
    expect(nextWakeAt(state)).toBe(state.notice?.disabledAt);
  });

  it("is not owed when the owner paused it or the key was deactivated, and is dropped when they enable it again", () => {
    const paused = setActive(accepted(initialState(subscription()), T0), false, T0);
    expect([paused.notice, nextWakeAt(paused)]).toEqual([null, null]);
    const keyGone = disableForKey(accepted(initialState(subscription()), T0), T0);
    expect([keyGone.notice, nextWakeAt(keyGone)]).toEqual([null, null]);

    const gone = attempt(accepted(initialState(subscription()), T0), gone410, T0);
    expect(gone.notice).not.toBeNull();
    const enabled = setActive(gone, true, T0 + 1);
    expect([enabled.notice, nextWakeAt(enabled)]).toEqual([null, null]);
    // A key deactivated while the notice waits: nobody is left to tell.
    expect(disableForKey(gone, T0 + 1).notice).toBeNull();
  });

  it("retries a failed send after 1 min, 10 min, 1 h and 6 h, then gives up; a sent or undeliverable one is done", () => {
    const gone = attempt(accepted(initialState(subscription()), T0), gone410, T0);
    let state = gone;
    const waits: number[] = [];
    for (let guard = 0; guard < 10 && state.notice !== null; guard++) {
      const now = state.notice.dueAt;
      state = noticeTried(state, "failed", now);
      if (state.notice !== null) waits.push(state.notice.dueAt - now);
    }
    expect(waits).toEqual(NOTICE_RETRY_DELAYS_MS.slice(0, 4));
    expect(waits).toEqual([60_000, 600_000, 3_600_000, 21_600_000]);
    expect(state.notice).toBeNull();
    expect(noticeTried(gone, "sent", T0).notice).toBeNull();
    expect(noticeTried(gone, "no_address", T0).notice).toBeNull();
  });

  it("waits an hour when held back by the send limits without counting it, and drops a notice older than 48 h", () => {
    const gone = attempt(accepted(initialState(subscription()), T0), gone410, T0);
    const held = noticeTried(gone, "held_back", T0);
    expect(held.notice).toMatchObject({ failedAttempts: 0, dueAt: T0 + NOTICE_HELD_BACK_WAIT_MS });
    const notice = gone.notice;
    if (notice === null) throw new Error("no notice");
    const lastChance = T0 + NOTICE_MAX_AGE_MS - NOTICE_HELD_BACK_WAIT_MS;
    expect(afterNoticeTry(notice, "held_back", lastChance)).toMatchObject({ dueAt: T0 + NOTICE_MAX_AGE_MS });
    expect(afterNoticeTry(notice, "held_back", lastChance + 1)).toBeNull();
  });

  it("names the subscription, the reason and the way back, and quotes nothing the caller wrote", () => {
    const state = attempt(accepted(initialState(subscription()), T0), gone410, T0);
    if (state.notice === null) throw new Error("no notice");
    const mail = noticeMail(state.subscription, state.notice, "https://api.example.com/");
    expect(mail.subject).toBe("Your webhook subscription was disabled");
    expect(mail.text).toContain(`Webhook subscription wh_1 was disabled at ${new Date(T0).toISOString()}`);
    expect(mail.text).toContain("410 Gone");
    expect(mail.text).toContain('PATCH https://api.example.com/v1/webhooks/wh_1 with {"is_active": true}');
    expect(mail.text).toContain("GET https://api.example.com/v1/webhooks/wh_1/deliveries");
    expect(mail.text).not.toContain("hooks.example.com");
  });
});
