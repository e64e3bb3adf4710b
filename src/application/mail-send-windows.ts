import { createHash } from "node:crypto";
import type { CounterRepository, CounterWindow } from "../store/ports/counters.js";
import { nextUtcMidnight } from "../domain/access/utc-day.js";
import { mailboxOf } from "../domain/access/mailbox.js";

const HOUR = 3_600_000;

/** What a mail sender needs of the counters: take a place in every window, or give it back. */
export type SendCounter = Pick<CounterRepository, "consumeAll" | "release">;

export interface MailSendLimits {
  /** Mails of this kind sent in a clock hour by the whole service. */
  readonly perHour: number;
  /** Mails of this kind to one mailbox in a UTC day. */
  readonly perMailboxPerDay: number;
}

/**
 * The service's clock-hour window and the mailbox's UTC-day window for one kind of mail (`kind`
 * names the buckets, so welcomes and owner notices count apart). The address's mailbox is named by
 * its tag (a hash, or the keyed blind index when sealed), so the counters are no readable list of mailboxes.
 */
export function mailSendWindows(kind: string, address: string, mailboxTag: (mailbox: string) => string, limits: MailSendLimits, now: number): CounterWindow[] {
  const dayEnd = nextUtcMidnight(now);
  return [
    clockHourWindow(`${kind}-mail`, limits.perHour, now),
    { bucket: `${kind}-mailbox:${mailboxTag(mailboxOf(address))}:${dayEnd}`, limit: limits.perMailboxPerDay, expiresAt: dayEnd },
  ];
}

/** The whole service's window of `limit` in the clock hour of `now`, named `<name>:<hour end>`. */
export function clockHourWindow(name: string, limit: number, now: number): CounterWindow {
  const hourEnd = (Math.floor(now / HOUR) + 1) * HOUR;
  return { bucket: `${name}:${hourEnd}`, limit, expiresAt: hourEnd };
}

/** A mailbox's counter name by default: a SHA-256 of it, no readable list (PERSONAL_DATA_KEYS: a keyed index). */
export const hashedMailboxTag = (mailbox: string): string => createHash("sha256").update(mailbox).digest("base64url").slice(0, 22);

/** Nothing reached the mailbox: the limits get the mail back (best effort; a failed release only over-counts). */
export async function giveBackMailWindows(counters: SendCounter, windows: readonly CounterWindow[], now: number): Promise<void> {
  await Promise.allSettled(windows.map((w) => counters.release(w, 1, now)));
}
