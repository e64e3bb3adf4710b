import type { NewsletterRepository } from "../store/ports/newsletter.js";
import type { Mailer } from "../notify/mailer.js";
import type { OwnerNotifier } from "../notify/owner-notifier.js";
import type { Logger } from "../logging/logger.js";
import type { Clock } from "../runtime/clocks/clock.js";
import { randomUUID } from "node:crypto";
import { maskEmail } from "../domain/access/mask-email.js";
import { errorSummary } from "../logging/error-summary.js";

const MAX_ATTEMPTS = 5;
/**
 * How long one claim on a welcome e-mail lasts; renewed before every attempt. Longer than an
 * attempt and the wait before it (25 s at most), so a claim lapses only when its holder died.
 */
const CLAIM_MS = 120_000;

export interface NewsletterOptions {
  /** Delays between welcome-mail attempts; the last failure is logged and left for the next start. */
  readonly retryDelaysMs: readonly number[];
}

/**
 * Store first, then send: a failing mail server never loses a subscription. The welcome e-mail
 * is retried in the background and, if still unsent, again at the next start. Every attempt
 * first claims the address in the store, so replicas that start together and each resume the
 * pending welcomes send each one once.
 */
export class NewsletterService {
  private readonly inflight = new Set<Promise<void>>();
  /** This instance's name on its claims (one per process, never shared). */
  private readonly claimant = randomUUID();
  constructor(
    private readonly repo: NewsletterRepository,
    private readonly mailer: Mailer,
    private readonly owner: OwnerNotifier,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: NewsletterOptions = { retryDelaysMs: [1000, 5000, 25000] },
  ) {}

  /** Returns whether the address was new; the caller answers identically either way. */
  async subscribe(email: string, name: string | null): Promise<boolean> {
    const created = await this.repo.subscribe(email, name, new Date(this.clock.now()).toISOString());
    if (created) this.track(this.deliver(email));
    return created;
  }

  /** Resends welcome e-mails that never went out (called at start-up). */
  async resumePending(): Promise<void> {
    for (const s of await this.repo.pendingWelcome(MAX_ATTEMPTS)) this.track(this.sendWelcome(s.email));
  }

  /** Waits for background sends (graceful shutdown, tests). */
  async drain(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  /**
   * A background job's failure (the store unreachable or busy while it claims or records) is
   * logged, not left to crash the process as an unhandled rejection: the address stays pending
   * and the next start sends its welcome.
   */
  private track(job: Promise<void>): void {
    const p = job.catch((err: unknown) => {
      this.logger.error({ err: errorSummary(err) }, "welcome e-mail job failed; the next start tries again");
    });
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
  }

  private async deliver(email: string): Promise<void> {
    await Promise.all([this.sendWelcome(email), this.notifyOwner(email)]);
  }

  /**
   * The welcome carries no word the caller wrote: nobody confirmed the address, so a greeting by
   * the submitted `name` would let anyone send a line of their own text (a link, a warning) from
   * MAIL_FROM to any address.
   */
  private async sendWelcome(email: string): Promise<void> {
    const delays = [0, ...this.options.retryDelaysMs];
    for (let attempt = 0; attempt < delays.length; attempt++) {
      if ((delays[attempt] ?? 0) > 0) await new Promise((r) => setTimeout(r, delays[attempt]));
      // Sent meanwhile, or another replica is sending it: not ours to send.
      if (!(await this.repo.claimWelcome(email, this.claimant, this.clock.now(), CLAIM_MS))) return;
      let sent = false;
      try {
        await this.mailer.send({
          to: email,
          subject: "Welcome to Market Intelligence",
          text: `Hello,\n\nthanks for subscribing. You will hear from us when there is something worth your time.\n\nIf you did not subscribe, or to unsubscribe, reply with "unsubscribe".\n`,
        });
        sent = true;
      } catch (err) {
        // The summary, not the message: a refusal quotes the full address (logging/error-summary.ts).
        this.logger.warn({ err: errorSummary(err), attempt: attempt + 1, to: maskEmail(email) }, "welcome e-mail failed");
      }
      // Recorded outside the send's try: a store failure after a sent e-mail must not count as a
      // failed send and send it again (it fails the job, logged by `track`).
      await this.repo.recordWelcomeAttempt(email, sent ? new Date(this.clock.now()).toISOString() : null);
      if (sent) return;
    }
    await this.repo.releaseWelcome(email, this.claimant);
    this.logger.error({ to: maskEmail(email) }, "welcome e-mail not delivered; will retry at next start");
  }

  private async notifyOwner(email: string): Promise<void> {
    try {
      await this.owner.notify(`New newsletter subscriber: ${maskEmail(email)}`);
    } catch (err) {
      // The summary, not the message: a fetch error quotes OWNER_NOTIFY_URL, a secret.
      this.logger.warn({ err: errorSummary(err) }, "owner notification failed");
    }
  }
}
