import { AUTO_DISABLE_AFTER_FAILURES } from "./limits.js";
import type { DisabledReason, WebhookSubscription } from "./subscription.js";

/**
 * The e-mail owed to a key's owner when delivery results disabled one of its subscriptions
 * (SPEC "Limits": 10 consecutive failures; DECISIONS 5: a 410). Nothing else tells them: their
 * receiver is what failed, so an event about it would go nowhere, and a trader does not poll
 * `GET /v1/webhooks` to learn that the signals stopped. A pause by the owner or a deactivated key
 * owes nothing (the owner did it).
 */
export interface OwnerNotice {
  readonly reason: AutoDisabledReason;
  readonly disabledAt: number;
  /** Sends tried that failed (the mail server's fault); a held-back send is not counted. */
  readonly failedAttempts: number;
  readonly dueAt: number;
}

export type AutoDisabledReason = Extract<DisabledReason, "consecutive_failures" | "gone">;

/** What came of one try at the notice. */
export type NoticeResult =
  /** Handed to the mail server. */
  | "sent"
  /** Nobody to tell: the lineage has no active key or was generated without an address, or the mail server refused the address for good. */
  | "no_address"
  /** A send limit (per mailbox a day, per service an hour) held it back: tried again later, not counted. */
  | "held_back"
  /** The mail server failed: tried again on the schedule. */
  | "failed";

/** Waits after the 1st, 2nd, … failed send; the last entry ends the attempts. */
export const NOTICE_RETRY_DELAYS_MS: readonly number[] = [60_000, 10 * 60_000, 60 * 60_000, 6 * 60 * 60_000];
/** How long a held-back notice waits before it tries again (the hourly limit's window). */
export const NOTICE_HELD_BACK_WAIT_MS = 60 * 60_000;
/** A notice not sent within this long after the disable is dropped: it would tell old news. */
export const NOTICE_MAX_AGE_MS = 48 * 60 * 60_000;

export function isAutoDisabled(reason: DisabledReason | null): reason is AutoDisabledReason {
  return reason === "consecutive_failures" || reason === "gone";
}

/** The notice owed when a subscription became inactive at `now`; null when nothing is owed. */
export function noticeOnDisable(subscription: WebhookSubscription, now: number): OwnerNotice | null {
  return isAutoDisabled(subscription.disabledReason) ? { reason: subscription.disabledReason, disabledAt: now, failedAttempts: 0, dueAt: now } : null;
}

/** The notice after one try at `now`: null when it is done (sent, nobody to tell, given up). */
export function afterNoticeTry(notice: OwnerNotice, result: NoticeResult, now: number): OwnerNotice | null {
  if (result === "sent" || result === "no_address") return null;
  const failedAttempts = notice.failedAttempts + (result === "failed" ? 1 : 0);
  const wait = result === "held_back" ? NOTICE_HELD_BACK_WAIT_MS : NOTICE_RETRY_DELAYS_MS[failedAttempts - 1];
  if (wait === undefined) return null;
  const dueAt = now + wait;
  return dueAt - notice.disabledAt > NOTICE_MAX_AGE_MS ? null : { ...notice, failedAttempts, dueAt };
}

export interface NoticeMail {
  readonly subject: string;
  readonly text: string;
}

const WHY: Readonly<Record<AutoDisabledReason, string>> = {
  consecutive_failures: `${AUTO_DISABLE_AFTER_FAILURES} delivery attempts in a row failed`,
  gone: "the receiver answered 410 Gone, which asks us to stop",
};

/**
 * The notice's words. Nothing in it was written by a caller, not even the subscription's URL:
 * a key can be generated with anyone's address, so a URL (or its host) chosen to read as a
 * message would be mailed from MAIL_FROM to that address. The id names the subscription; the
 * owner's key shows the rest.
 */
export function noticeMail(subscription: WebhookSubscription, notice: OwnerNotice, publicBaseUrl: string): NoticeMail {
  const base = publicBaseUrl.replace(/\/+$/, "");
  const path = `${base}/v1/webhooks/${subscription.id}`;
  return {
    subject: "Your webhook subscription was disabled",
    text: [
      `Webhook subscription ${subscription.id} was disabled at ${new Date(notice.disabledAt).toISOString()}: ${WHY[notice.reason]}.`,
      "No events are sent to it until it is enabled again; events published meanwhile are not sent later.",
      "",
      `What each attempt answered: GET ${path}/deliveries`,
      `Once the receiver is fixed, enable it again (the failure count starts from zero): PATCH ${path} with {"is_active": true}`,
      `Or remove it: DELETE ${path}`,
      "",
      "You receive this because an API key owning this subscription was generated with this address.",
    ].join("\n"),
  };
}
