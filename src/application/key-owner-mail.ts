import type { ApiKeyRepository } from "../store/ports/api-keys.js";
import { isRecipientRefused, type Mailer } from "../notify/mailer.js";
import type { Logger } from "../logging/logger.js";
import type { Clock } from "../runtime/clocks/clock.js";
import type { NoticeMail, NoticeResult } from "../domain/webhooks/owner-notice.js";
import { maskEmail } from "../domain/access/mask-email.js";
import { errorSummary } from "../logging/error-summary.js";
import { giveBackMailWindows, mailSendWindows, type MailSendLimits, type SendCounter } from "./mail-send-windows.js";

/**
 * Nobody confirmed the address a key was generated with (`POST /v1/keys/generate` takes any), so
 * whoever generates keys with someone's address and registers failing webhooks could have that
 * inbox mailed; the words are fixed (owner-notice.ts) and these limits bound how often.
 */
export const KEY_OWNER_MAIL_LIMITS: MailSendLimits = { perHour: 100, perMailboxPerDay: 3 };

/**
 * Mail to the owner of a key lineage: the address its active key was generated with (opened, when
 * personal data is sealed, by the repository given). Counted against the store's counters, so
 * replicas share the limits; a failed send gives its places back.
 */
export class KeyOwnerMail {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly counters: SendCounter,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** What a mailbox's daily counter is named by (a hash, or the keyed blind index when sealed). */
    private readonly mailboxTag: (mailbox: string) => string,
    private readonly limits: MailSendLimits = KEY_OWNER_MAIL_LIMITS,
  ) {}

  async send(lineage: string, mail: NoticeMail): Promise<NoticeResult> {
    const owner = (await this.keys.findActiveByUsageId(lineage))?.email ?? null;
    if (owner === null) return "no_address";
    const windows = mailSendWindows("owner", owner, this.mailboxTag, this.limits, this.clock.now());
    if (!(await this.counters.consumeAll(windows, this.clock.now())).allowed) {
      this.logger.info({ to: maskEmail(owner) }, "key owner mail held back by the send limits");
      return "held_back";
    }
    try {
      await this.mailer.send({ to: owner, ...mail });
      return "sent";
    } catch (err) {
      // The summary, not the message: a refusal quotes the full address (logging/error-summary.ts).
      this.logger.warn({ err: errorSummary(err), to: maskEmail(owner) }, "key owner mail failed");
      await giveBackMailWindows(this.counters, windows, this.clock.now());
      return isRecipientRefused(err) ? "no_address" : "failed";
    }
  }
}
