import { AUTO_DISABLE_AFTER_FAILURES, MAX_PREVIOUS_SECRETS, MAX_SUBSCRIPTIONS_PER_KEY, ROTATION_OVERLAP_MS } from "./limits.js";
import { isGone, type DeliveryOutcome } from "./outcome.js";
import type { SubscribableEventType, WebhookEventType } from "./event-types.js";
import type { SigningSecrets } from "./signing.js";

/** Why a subscription is inactive: paused by its owner, disabled by delivery results, or its key deactivated. */
export type DisabledReason = "paused" | "consecutive_failures" | "gone" | "key_deactivated";

/**
 * A webhook subscription (SPEC "Webhook subscription"). Plain data with epoch-millisecond times,
 * so an actor can persist it as JSON; the HTTP layer renders ISO strings.
 */
export interface WebhookSubscription {
  readonly id: string;
  /** The key lineage that owns it (the usage id of its keys); a key sees only its lineage's subscriptions. */
  readonly ownerKeyId: string;
  readonly url: string;
  readonly events: readonly SubscribableEventType[];
  readonly secret: string;
  /**
   * Secrets replaced by rotations, newest first, each still signing `webhook-signature` until its
   * `expiresAt` (24 h after it was replaced); expired ones are dropped at the next rotation.
   */
  readonly previousSecrets: readonly ReplacedSecret[];
  readonly isActive: boolean;
  readonly disabledReason: DisabledReason | null;
  readonly createdAt: number;
  readonly lastTriggeredAt: number | null;
  readonly failuresSinceSuccess: number;
}

export interface ReplacedSecret {
  readonly secret: string;
  readonly expiresAt: number;
}

export interface NewSubscription {
  readonly id: string;
  readonly ownerKeyId: string;
  readonly url: string;
  readonly events: readonly SubscribableEventType[];
  readonly secret: string;
  readonly now: number;
}

export function createSubscription(input: NewSubscription): WebhookSubscription {
  return {
    id: input.id,
    ownerKeyId: input.ownerKeyId,
    url: input.url,
    // Duplicates in the request would otherwise fan one event out twice.
    events: [...new Set(input.events)],
    secret: input.secret,
    previousSecrets: [],
    isActive: true,
    disabledReason: null,
    createdAt: input.now,
    lastTriggeredAt: null,
    failuresSinceSuccess: 0,
  };
}

export function wantsEvent(subscription: WebhookSubscription, type: WebhookEventType): boolean {
  return subscription.isActive && (subscription.events as readonly string[]).includes(type);
}

/**
 * PATCH `{is_active}` (DECISIONS 5): re-enabling resets `failures_since_success` to 0. A PATCH
 * that changes nothing leaves the subscription as it is: `true` on an active one must not wipe the
 * failure count (a client "ensuring" its webhook is on would otherwise keep a failing receiver
 * from ever reaching SPEC's 10-failure disable), and `false` on a disabled one must not replace
 * why it was disabled with "paused".
 */
export function setActive(subscription: WebhookSubscription, active: boolean): WebhookSubscription {
  if (subscription.isActive === active) return subscription;
  if (active) return { ...subscription, isActive: true, disabledReason: null, failuresSinceSuccess: 0 };
  return { ...subscription, isActive: false, disabledReason: "paused" };
}

/** The owning key was deactivated: nothing more is delivered, and the subscription says why. */
export function disableForKey(subscription: WebhookSubscription): WebhookSubscription {
  return { ...subscription, isActive: false, disabledReason: "key_deactivated" };
}

/**
 * The new secret signs everything; the replaced one keeps signing `webhook-signature` for 24 h,
 * as do those replaced before it whose 24 h are not over (up to MAX_PREVIOUS_SECRETS).
 */
export function rotateSecret(subscription: WebhookSubscription, newSecret: string, now: number): WebhookSubscription {
  const stillValid = subscription.previousSecrets.filter((p) => now < p.expiresAt);
  return {
    ...subscription,
    secret: newSecret,
    previousSecrets: [{ secret: subscription.secret, expiresAt: now + ROTATION_OVERLAP_MS }, ...stillValid].slice(0, MAX_PREVIOUS_SECRETS),
  };
}

export function signingSecrets(subscription: WebhookSubscription, now: number): SigningSecrets {
  return { current: subscription.secret, previous: subscription.previousSecrets.filter((p) => now < p.expiresAt).map((p) => p.secret) };
}

/**
 * Counts one real (non-test) attempt: every failure increments `failures_since_success`, a
 * success resets it, the 10th consecutive failure or a 410 disables the subscription.
 */
export function recordAttempt(subscription: WebhookSubscription, outcome: DeliveryOutcome, now: number): WebhookSubscription {
  if (outcome.kind === "success") return { ...subscription, lastTriggeredAt: now, failuresSinceSuccess: 0 };
  const failures = subscription.failuresSinceSuccess + 1;
  const reason: DisabledReason | null = isGone(outcome)
    ? "gone"
    : failures >= AUTO_DISABLE_AFTER_FAILURES
      ? "consecutive_failures"
      : null;
  if (reason === null || !subscription.isActive) {
    return { ...subscription, lastTriggeredAt: now, failuresSinceSuccess: failures };
  }
  return { ...subscription, lastTriggeredAt: now, failuresSinceSuccess: failures, isActive: false, disabledReason: reason };
}

/** A sixth subscription for a key is refused with 409 webhook_limit_reached (DECISIONS 5). */
export function subscriptionLimitReached(existingForKey: number): boolean {
  return existingForKey >= MAX_SUBSCRIPTIONS_PER_KEY;
}

/**
 * A key sees, deletes, tests and patches only its own subscriptions; anything else is answered
 * 404 webhook_not_found, exactly as a missing id, so ids of other keys cannot be probed.
 */
export function isOwnedBy(subscription: WebhookSubscription, keyId: string): boolean {
  return subscription.ownerKeyId === keyId;
}
