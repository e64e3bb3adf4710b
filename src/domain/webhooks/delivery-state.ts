import { deliveryIdFor } from "./delivery-id.js";
import { serializeEnvelope, type WebhookEvent } from "./webhook-body.js";
import type { WebhookEventType } from "./event-types.js";
import { AUTO_DISABLE_AFTER_FAILURES, MAX_DELIVERY_RECORDS, MAX_REMEMBERED_DELIVERIES } from "./limits.js";
import type { DeliveryError, DeliveryOutcome } from "./outcome.js";
import { nextAttempt, type NextStep } from "./retry-schedule.js";
import * as subscriptions from "./subscription.js";
import type { WebhookSubscription } from "./subscription.js";
import { afterNoticeTry, noticeOnDisable, type NoticeResult, type OwnerNotice } from "./owner-notice.js";

/**
 * The delivery state machine of one subscription: pure functions from state to state, with
 * times passed in. A WebhookSubscriptionActor persists `SubscriptionState` (plain JSON) and
 * sets its durable reminder to `nextDueAt(state)`, so a restart resumes exactly where the
 * schedule stood.
 *
 * Ordering: deliveries are independent. First attempts go out in event order, but a failing
 * event does not hold back later ones (a 155 s retry chain must not delay fresh trading
 * signals); receivers order by the envelope `timestamp`.
 */

/** One event waiting for its next attempt. `body` is the exact bytes every attempt sends. */
export interface PendingDelivery {
  readonly deliveryId: string;
  readonly eventId: string;
  readonly eventType: WebhookEventType;
  readonly body: string;
  /** Attempts made so far; 0 until the first one. */
  readonly attemptsMade: number;
  readonly dueAt: number;
  /** Arrival order, so equal due times keep event order. */
  readonly sequence: number;
}

/** One row of `GET /v1/webhooks/{id}/deliveries`. */
export interface DeliveryRecord {
  readonly deliveryId: string;
  readonly event: WebhookEventType;
  readonly attempt: number;
  readonly statusCode: number | null;
  readonly error: DeliveryError | "subscription_inactive" | "key_deactivated" | null;
  readonly durationMs: number;
  readonly at: number;
  readonly next: NextStep["kind"] | "cancelled";
}

export interface SubscriptionState {
  readonly subscription: WebhookSubscription;
  readonly pending: readonly PendingDelivery[];
  /** Completed delivery ids, newest last, bounded: drops bus redeliveries of finished events. */
  readonly finished: readonly string[];
  readonly records: readonly DeliveryRecord[];
  readonly nextSequence: number;
  /** The e-mail owed to the key's owner since delivery results disabled the subscription. */
  readonly notice: OwnerNotice | null;
}

export function initialState(subscription: WebhookSubscription): SubscriptionState {
  return { subscription, pending: [], finished: [], records: [], nextSequence: 0, notice: null };
}

export type AcceptResult =
  | { readonly accepted: true; readonly state: SubscriptionState; readonly delivery: PendingDelivery }
  | { readonly accepted: false; readonly state: SubscriptionState; readonly reason: "not_subscribed" | "duplicate" };

/**
 * An event from the bus. The bus delivers at least once, so an event already pending or
 * recently finished is dropped: the idempotency key is the delivery id.
 */
export function acceptEvent(state: SubscriptionState, event: WebhookEvent, now: number): AcceptResult {
  if (!subscriptions.wantsEvent(state.subscription, event.type)) {
    return { accepted: false, state, reason: "not_subscribed" };
  }
  const deliveryId = deliveryIdFor(event.id, state.subscription.id);
  if (state.finished.includes(deliveryId) || state.pending.some((p) => p.deliveryId === deliveryId)) {
    return { accepted: false, state, reason: "duplicate" };
  }
  const delivery: PendingDelivery = {
    deliveryId,
    eventId: event.id,
    eventType: event.type,
    body: serializeEnvelope(event),
    attemptsMade: 0,
    dueAt: now,
    sequence: state.nextSequence,
  };
  return {
    accepted: true,
    delivery,
    state: { ...state, pending: [...state.pending, delivery], nextSequence: state.nextSequence + 1 },
  };
}

/**
 * Deliveries whose attempt is due, oldest due first, to be sent together and folded in with
 * applyOutcome before the next call. At most as many as failures are left before the
 * auto-disable: if all of them fail, the 10th failure is the last attempt ever sent, never
 * one of several already in flight.
 */
export function dueDeliveries(state: SubscriptionState, now: number): PendingDelivery[] {
  const { isActive, failuresSinceSuccess } = state.subscription;
  if (!isActive) return [];
  const budget = Math.max(1, AUTO_DISABLE_AFTER_FAILURES - failuresSinceSuccess);
  return state.pending
    .filter((p) => p.dueAt <= now)
    .sort((a, b) => a.dueAt - b.dueAt || a.sequence - b.sequence)
    .slice(0, budget);
}

/** When the next delivery attempt is due; null when nothing is pending. */
export function nextDueAt(state: SubscriptionState): number | null {
  if (!state.subscription.isActive || state.pending.length === 0) return null;
  return Math.min(...state.pending.map((p) => p.dueAt));
}

/** When the actor's reminder should fire next: the next attempt or the owner's notice, whichever is sooner. */
export function nextWakeAt(state: SubscriptionState): number | null {
  const attempt = nextDueAt(state);
  const notice = state.notice?.dueAt ?? null;
  if (attempt === null || notice === null) return attempt ?? notice;
  return Math.min(attempt, notice);
}

/** Whether the owner's notice is due at `now` (an inactive subscription has nothing else to do). */
export function noticeDue(state: SubscriptionState, now: number): OwnerNotice | null {
  return state.notice !== null && state.notice.dueAt <= now ? state.notice : null;
}

/** What came of a try at the owner's notice: done, or due again later. */
export function noticeTried(state: SubscriptionState, result: NoticeResult, now: number): SubscriptionState {
  return state.notice === null ? state : { ...state, notice: afterNoticeTry(state.notice, result, now) };
}

/** The subscription became inactive through delivery results: what is pending goes, the owner is owed a notice. */
function disabledByResults(state: SubscriptionState, now: number): SubscriptionState {
  return { ...cancelPending(state, now), notice: noticeOnDisable(state.subscription, now) };
}

export interface AppliedOutcome {
  readonly state: SubscriptionState;
  /** null when the delivery was no longer pending (cancelled while in flight). */
  readonly step: NextStep | null;
  /** Set when this outcome disabled the subscription, so the owner can be told. */
  readonly disabled: boolean;
}

function appendBounded<T>(list: readonly T[], items: readonly T[], max: number): T[] {
  const next = [...list, ...items];
  return next.length > max ? next.slice(next.length - max) : next;
}

/**
 * The result of one attempt: counts it on the subscription, then retries on schedule,
 * finishes, or — when the subscription became inactive — cancels everything still pending.
 */
export function applyOutcome(
  state: SubscriptionState,
  deliveryId: string,
  outcome: DeliveryOutcome,
  now: number,
): AppliedOutcome {
  const recorded = recordOutcome(state, { deliveryId, outcome, sentAt: now }, now);
  const disabled = state.subscription.isActive && !recorded.state.subscription.isActive;
  return { state: disabled ? disabledByResults(recorded.state, now) : recorded.state, step: recorded.step, disabled };
}

/** One attempt a turn sent, with what came of it. */
export interface SentAttempt {
  readonly deliveryId: string;
  readonly outcome: DeliveryOutcome;
  /** When it was sent: its `webhook-timestamp` header and its `attempted_at` in the log. */
  readonly sentAt: number;
  /**
   * When its answer (or failure) came. Its retry delay counts from here, not from the end of the
   * turn: a fast 500 sent beside a delivery that times out is retried 5 s after its own answer.
   */
  readonly settledAt: number;
}

/**
 * The outcomes of the attempts one turn sent together. Every one of them is recorded with its
 * real answer before anything is cancelled: when one is a 410 (or the 10th failure) the others
 * were already sent and answered, and a receiver that acknowledged an event must not read in
 * the delivery log that it was cancelled unsent. Then, if the subscription became inactive,
 * what is still pending is cancelled.
 */
export function applyOutcomes(state: SubscriptionState, attempts: readonly SentAttempt[], now: number): { readonly state: SubscriptionState; readonly disabled: boolean } {
  let next = state;
  // In the order the answers came, so the failure count and the log read as the receiver saw them.
  const bySettling = [...attempts].sort((a, b) => a.settledAt - b.settledAt);
  for (const attempt of bySettling) next = recordOutcome(next, attempt, attempt.settledAt).state;
  const disabled = state.subscription.isActive && !next.subscription.isActive;
  return { state: disabled ? disabledByResults(next, now) : next, disabled };
}

/** Counts one attempt and schedules what follows it; cancels nothing. */
function recordOutcome(
  state: SubscriptionState,
  { deliveryId, outcome, sentAt }: Omit<SentAttempt, "settledAt">,
  now: number,
): { readonly state: SubscriptionState; readonly step: NextStep | null } {
  const delivery = state.pending.find((p) => p.deliveryId === deliveryId);
  if (delivery === undefined) return { state, step: null };

  const attemptsMade = delivery.attemptsMade + 1;
  const step = nextAttempt(attemptsMade, outcome, now);
  const subscription = subscriptions.recordAttempt(state.subscription, outcome, now);
  const record: DeliveryRecord = {
    deliveryId,
    event: delivery.eventType,
    attempt: attemptsMade,
    statusCode: outcome.statusCode,
    error: outcome.kind === "failure" ? outcome.error : null,
    durationMs: outcome.durationMs,
    at: sentAt,
    next: step.kind,
  };
  const others = state.pending.filter((p) => p.deliveryId !== deliveryId);
  const pending = step.kind === "retry" ? [...others, { ...delivery, attemptsMade, dueAt: step.dueAt }] : others;
  return {
    step,
    state: {
      ...state,
      subscription,
      pending,
      finished: step.kind === "retry" ? state.finished : appendBounded(state.finished, [deliveryId], MAX_REMEMBERED_DELIVERIES),
      records: appendBounded(state.records, [record], MAX_DELIVERY_RECORDS),
    },
  };
}

/**
 * An inactive subscription gets no further deliveries (SPEC states table), so what is still
 * pending is cancelled and recorded rather than silently dropped.
 */
export function cancelPending(state: SubscriptionState, now: number, error: "subscription_inactive" | "key_deactivated" = "subscription_inactive"): SubscriptionState {
  if (state.pending.length === 0) return state;
  const cancelled: DeliveryRecord[] = state.pending.map((p) => ({
    deliveryId: p.deliveryId,
    event: p.eventType,
    attempt: p.attemptsMade,
    statusCode: null,
    error,
    durationMs: 0,
    at: now,
    next: "cancelled",
  }));
  return {
    ...state,
    pending: [],
    finished: appendBounded(state.finished, state.pending.map((p) => p.deliveryId), MAX_REMEMBERED_DELIVERIES),
    records: appendBounded(state.records, cancelled, MAX_DELIVERY_RECORDS),
  };
}

/** PATCH `{is_active}`: pausing cancels pending retries; re-enabling resets the failure count. */
export function setActive(state: SubscriptionState, active: boolean, now: number): SubscriptionState {
  if (state.subscription.isActive === active) return state;
  const next = { ...state, subscription: subscriptions.setActive(state.subscription, active) };
  // Enabled again: the owner acted, so a notice still owed would tell them what they know.
  return active ? { ...next, notice: null } : cancelPending(next, now);
}

/** The owner key is gone: pending deliveries are cancelled (recorded as such), none is sent. */
export function disableForKey(state: SubscriptionState, now: number): SubscriptionState {
  return cancelPending({ ...state, subscription: subscriptions.disableForKey(state.subscription), notice: null }, now, "key_deactivated");
}

export function rotateSecret(state: SubscriptionState, newSecret: string, now: number): SubscriptionState {
  return { ...state, subscription: subscriptions.rotateSecret(state.subscription, newSecret, now) };
}
