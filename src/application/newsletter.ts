import { randomBytes, randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { NewsletterRepository } from "../store/ports/newsletter.js";
import type { CounterWindow } from "../store/ports/counters.js";
import { isRecipientRefused, type MailMessage, type Mailer } from "../notify/mailer.js";
import type { OwnerNotifier } from "../notify/owner-notifier.js";
import type { Logger } from "../logging/logger.js";
import type { Clock } from "../runtime/clocks/clock.js";
import { maskEmail } from "../domain/access/mask-email.js";
import { clockHourWindow, giveBackMailWindows, hashedMailboxTag, mailSendWindows, type MailSendLimits, type SendCounter } from "./mail-send-windows.js";
import { hashUnsubscribeToken, mintUnsubscribeToken } from "../domain/access/unsubscribe-token.js";
import { errorSummary } from "../logging/error-summary.js";
import { within } from "../runtime/activation-table.js";
import { isRetryableStatus } from "../llm/retry-policy.js";

/** Attempts at one welcome e-mail over its whole life, across sweeps, restarts and replicas. */
export const MAX_WELCOME_ATTEMPTS = 5;
/**
 * How long one claim on a welcome e-mail lasts; renewed before every attempt. Longer than an
 * attempt (the mailer ends each send within 60 s, SMTP_TIMEOUTS.sendMs) and the wait before it
 * (25 s at most), so a claim lapses only when its holder died.
 */
const CLAIM_MS = 120_000;

export interface NewsletterOptions {
  /** Delays between a sign-up's welcome attempts; what is still unsent waits for a sweep. */
  readonly retryDelaysMs?: readonly number[];
  /** How often pending welcomes are tried again, one attempt each (default 15 minutes). */
  readonly sweepEveryMs?: number;
  /**
   * Welcome e-mails sent in a clock hour by the whole service, and to one mailbox in a UTC day.
   * A sign-up asks for a mail to an address nobody confirmed; without these, sign-ups of
   * `victim+1@…`, `victim+2@…` from many networks flooded one inbox. What a limit holds back
   * stays pending, and a later sweep sends it.
   */
  readonly sendLimits?: MailSendLimits;
  /** Where readers reach the service (PUBLIC_BASE_URL): the welcome's unsubscribe link starts with it. */
  readonly publicBaseUrl?: string;
  /**
   * What a mailbox's daily counter is named by. By default a SHA-256 of the mailbox, which keeps
   * the counters from being a readable list but can be tested against a list of addresses; with
   * PERSONAL_DATA_KEYS set, the mailbox's keyed blind index, which cannot.
   */
  readonly mailboxTag?: (mailbox: string) => string;
  /**
   * Owner notifications a clock hour for the whole service (default 60): sign-ups from many
   * networks must not flood the owner's channel. The sign-ups past it are stored and welcomed
   * as usual; only their pings are skipped (logged).
   */
  readonly ownerPingsPerHour?: number;
  /** Addresses one sweep looks at (default 1,000): a sweep's work stays bounded whatever the backlog. */
  readonly sweepBatch?: number;
}

const DEFAULT_OPTIONS = {
  retryDelaysMs: [1000, 5000, 25000],
  sweepEveryMs: 15 * 60_000,
  sendLimits: { perHour: 100, perMailboxPerDay: 2 },
  publicBaseUrl: "http://localhost:8080",
  mailboxTag: hashedMailboxTag,
  ownerPingsPerHour: 60,
  sweepBatch: 1_000,
};

/**
 * How long after its sign-up a welcome is still sent. Every sign-up asks for a mail to an address
 * nobody confirmed: without an end, `victim+1…+1000@` signed up from many networks kept one inbox
 * getting its daily two welcomes for 500 days, and every sweep walked the whole backlog. After
 * three days the address stays subscribed, without a welcome.
 */
export const WELCOME_WINDOW_MS = 3 * 24 * 3_600_000;

/** Why an attempt did not send. `hour_spent`: held back by the whole service's hourly number. */
type Outcome = "sent" | "failed" | "refused_permanently" | "held_back" | "hour_spent" | "not_ours";

/**
 * Store first, then send: a failing mail server never loses a subscription. A sign-up's welcome
 * e-mail is tried a few times in the background; what is still unsent is tried again by a sweep
 * every 15 minutes (and at start), up to MAX_WELCOME_ATTEMPTS attempts in all. Every attempt first
 * claims the address in the store, so replicas that sweep together send each welcome once.
 */
export class NewsletterService {
  private readonly inflight = new Set<Promise<void>>();
  /** This instance's name on its claims (one per process, never shared). */
  private readonly claimant = randomUUID();
  /** Addresses this instance holds a claim on, given back when it stops. */
  private readonly held = new Set<string>();
  /**
   * Of those, the ones between their claim and their recorded attempt (the send limits, the
   * send, the record): their claims are kept to the end (see `stop`).
   */
  private readonly busy = new Set<string>();
  /** Addresses a job of this process is working on: a sweep never starts a second one beside it. */
  private readonly jobs = new Set<string>();
  private readonly stopping = new AbortController();
  private readonly options: Required<NewsletterOptions>;
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping = false;
  /** Sign-up time the next sweep starts from (this process's fairness only; null: the oldest). */
  private sweptUpTo: string | null = null;
  constructor(
    private readonly repo: NewsletterRepository,
    private readonly counters: SendCounter,
    private readonly mailer: Mailer,
    private readonly owner: OwnerNotifier,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: NewsletterOptions = DEFAULT_OPTIONS,
  ) {
    this.options = { ...DEFAULT_OPTIONS, ...options };
  }

  /** Returns whether the address was new; the caller answers identically either way. */
  async subscribe(email: string, name: string | null): Promise<boolean> {
    const created = await this.repo.subscribe(email, name, new Date(this.clock.now()).toISOString());
    if (created) this.track(this.deliver(email));
    return created;
  }

  /**
   * Forgets the subscriber whose unsubscribe link carries `token`; false when none does (a link
   * already used, or never ours). The caller checked the token's form.
   */
  async unsubscribe(token: string): Promise<boolean> {
    const removed = await this.repo.removeByUnsubscribeHash(hashUnsubscribeToken(token));
    if (removed) this.logger.info("newsletter subscriber unsubscribed by link");
    return removed;
  }

  /** Sweeps pending welcomes now and then every `sweepEveryMs` until `stop`. */
  start(): void {
    if (this.sweepTimer !== undefined || this.stopping.signal.aborted) return;
    this.resumePending();
    this.sweepTimer = setInterval(() => this.resumePending(), this.options.sweepEveryMs);
    this.sweepTimer.unref();
  }

  /** One sweep over welcomes that never went out, in the background (start-up, the timer, tests). */
  resumePending(): void {
    if (this.sweeping) return;
    this.sweeping = true;
    this.track(this.sweep().finally(() => (this.sweeping = false)));
  }

  /** Waits for background sends (tests). */
  async drain(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  /**
   * Stops sweeping, cuts short every wait between attempts, lets a send in progress finish for
   * up to `withinMs`, and gives back the claims this instance holds, so a replacement started at
   * once sends those welcomes instead of waiting two minutes for the claims to lapse. A claim on a
   * mail still on its way is kept: given back, another replica could send the same welcome.
   */
  async stop(withinMs: number): Promise<void> {
    clearInterval(this.sweepTimer);
    this.stopping.abort();
    await within(this.drain(), withinMs);
    const idle = [...this.held].filter((email) => !this.busy.has(email));
    await Promise.allSettled(idle.map((email) => this.repo.releaseWelcome(email, this.claimant)));
  }

  /**
   * A background job's failure (the store unreachable or busy while it claims or records) is
   * logged, not left to crash the process as an unhandled rejection: the address stays pending
   * and a later sweep sends its welcome.
   */
  private track(job: Promise<void>): void {
    const p = job.catch((err: unknown) => {
      this.logger.error({ err: errorSummary(err) }, "welcome e-mail job failed; a later sweep tries again");
    });
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
  }

  private async deliver(email: string): Promise<void> {
    await Promise.all([this.sendWelcome(email, [0, ...this.options.retryDelaysMs]), this.notifyOwner(email)]);
  }

  /**
   * One attempt per pending address, one address at a time: a sweep never opens a burst of
   * connections. Only sign-ups of the last WELCOME_WINDOW_MS, at most `sweepBatch` of them
   * from where the last sweep ended, and it ends when the service's hourly number is spent: the
   * rest would all be held back.
   */
  private async sweep(): Promise<void> {
    const windowStart = new Date(this.clock.now() - WELCOME_WINDOW_MS).toISOString();
    // A sweep goes on where the last one ended, so 1,000 sign-ups a mailbox's daily number holds
    // back cannot keep every later one from its turn until it ages out.
    const since = this.sweptUpTo !== null && this.sweptUpTo > windowStart ? this.sweptUpTo : windowStart;
    const batch = this.options.sweepBatch;
    const page = await this.repo.pendingWelcome(MAX_WELCOME_ATTEMPTS, { since, limit: batch });
    // A short page reached the end: the next sweep starts again from the oldest.
    this.sweptUpTo = page.length < batch ? null : (page.at(-1)?.subscribedAt ?? null);
    for (const s of page) {
      if (this.stopping.signal.aborted) return;
      if ((await this.sendWelcome(s.email, [0])) === "hour_spent") {
        // The next hour starts at the one held back.
        this.sweptUpTo = s.subscribedAt;
        return;
      }
    }
  }

  /**
   * Attempts after each of `delays` until one sends, the server refuses for good, or it is not
   * ours to send. The store's claim keeps other processes off the address; `jobs` keeps this
   * process's own sweep off it (the claim is per process, so it would let the sweep in).
   */
  private async sendWelcome(email: string, delays: readonly number[]): Promise<Outcome | null> {
    if (this.jobs.has(email)) return null;
    this.jobs.add(email);
    try {
      return await this.sendWelcomeAlone(email, delays);
    } finally {
      this.jobs.delete(email);
    }
  }

  /** The last attempt's outcome; null when none was made. */
  private async sendWelcomeAlone(email: string, delays: readonly number[]): Promise<Outcome | null> {
    let outcome: Outcome | null = null;
    for (const [i, delay] of delays.entries()) {
      // A stopped service starts no attempt (a sign-up answered while it stopped): the next start's sweep sends it.
      if (this.stopping.signal.aborted || (delay > 0 && !(await this.pause(delay)))) break;
      outcome = await this.attempt(email, i + 1);
      if (outcome !== "failed") break;
    }
    if (this.held.delete(email)) await this.repo.releaseWelcome(email, this.claimant);
    if (outcome === "failed" || outcome === "refused_permanently") {
      const attempts = (await this.repo.get(email))?.welcomeAttempts ?? 0;
      this.logger.warn(
        { to: maskEmail(email), attempts, max_attempts: MAX_WELCOME_ATTEMPTS },
        attempts >= MAX_WELCOME_ATTEMPTS ? "welcome e-mail not delivered; giving up" : "welcome e-mail not delivered yet; a later sweep tries again",
      );
    }
    return outcome;
  }

  /**
   * The welcome carries no word the caller wrote: nobody confirmed the address, so a greeting by
   * the submitted `name` would let anyone send a line of their own text (a link, a warning) from
   * MAIL_FROM to any address.
   */
  private async attempt(email: string, attempt: number): Promise<Outcome> {
    // Sent meanwhile, out of attempts, or another replica is sending it: not ours to send.
    if (!(await this.repo.claimWelcome(email, this.claimant, this.clock.now(), CLAIM_MS, MAX_WELCOME_ATTEMPTS))) return "not_ours";
    this.held.add(email);
    this.busy.add(email);
    try {
      return await this.sendClaimed(email, attempt);
    } finally {
      this.busy.delete(email);
    }
  }

  private async sendClaimed(email: string, attempt: number): Promise<Outcome> {
    // Null: unsubscribed (or sent) since the claim.
    const token = await this.repo.unsubscribeToken(email, mintUnsubscribeToken(randomBytes));
    if (token === null) return "not_ours";
    const windows = this.sendWindows(email);
    const counted = await this.counters.consumeAll(windows, this.clock.now());
    if (!counted.allowed) {
      this.logger.info({ to: maskEmail(email) }, "welcome e-mail held back by the send limits; a later sweep sends it");
      // The first window is the whole service's hour (mailSendWindows).
      return counted.blockedIndex === 0 ? "hour_spent" : "held_back";
    }
    if (this.stopping.signal.aborted) {
      // Stopped while the limits were counted: no mail starts now, and its places go back.
      await this.giveBack(windows);
      return "held_back";
    }
    let outcome: Outcome = "sent";
    try {
      await this.mailer.send(welcomeMail(email, `${this.options.publicBaseUrl.replace(/\/+$/, "")}/unsubscribe?token=${token}`));
    } catch (err) {
      outcome = isRecipientRefused(err) ? "refused_permanently" : "failed";
      // The summary, not the message: a refusal quotes the full address (logging/error-summary.ts).
      this.logger.warn({ err: errorSummary(err), attempt, to: maskEmail(email) }, "welcome e-mail failed");
      // Nothing reached the mailbox: the limits get the mail back.
      await this.giveBack(windows);
    }
    // Recorded outside the send's try: a store failure after a sent e-mail must not count as a
    // failed send and send it again (it fails the job, logged by `track`).
    const sentAt = outcome === "sent" ? new Date(this.clock.now()).toISOString() : null;
    await this.repo.recordWelcomeAttempt(email, sentAt, outcome === "refused_permanently" ? MAX_WELCOME_ATTEMPTS : undefined);
    return outcome;
  }

  private async giveBack(windows: readonly CounterWindow[]): Promise<void> {
    await giveBackMailWindows(this.counters, windows, this.clock.now());
  }

  private sendWindows(email: string): CounterWindow[] {
    return mailSendWindows("welcome", email, this.options.mailboxTag, this.options.sendLimits, this.clock.now());
  }

  /** Waits `ms`; false when the service stopped meanwhile. */
  private pause(ms: number): Promise<boolean> {
    return sleep(ms, true, { signal: this.stopping.signal }).catch(() => false);
  }

  /**
   * Tried again after the welcome's delays when the channel fails for a while (a 5xx, a 429,
   * 408 or 409, a timeout, no connection): a chat webhook's outage lost the sign-up's one ping.
   * Another 4xx (a deleted or mistyped webhook) is the operator's to mend and ends the attempts. Not
   * stored: a restart or a stop forgets a notice still owed, and a timed-out attempt the channel
   * did take may ping twice (the owner reads it; a subscriber never does).
   */
  private async notifyOwner(email: string): Promise<void> {
    const perHour = this.options.ownerPingsPerHour;
    const now = this.clock.now();
    if (!(await this.counters.consumeAll([clockHourWindow("owner-ping", perHour, now)], now)).allowed) {
      this.logger.info({ per_hour: perHour }, "owner notification skipped: this hour's are spent");
      return;
    }
    const text = `New newsletter subscriber: ${maskEmail(email)}`;
    const delays = [0, ...this.options.retryDelaysMs];
    for (const [i, delay] of delays.entries()) {
      if (delay > 0 && !(await this.pause(delay))) return;
      try {
        await this.owner.notify(text);
        return;
      } catch (err) {
        const last = i === delays.length - 1 || !ownerRetryable(err);
        // The summary, not the message: a fetch error quotes OWNER_NOTIFY_URL, a secret.
        this.logger.warn({ err: errorSummary(err), attempt: i + 1, max_attempts: delays.length }, last ? "owner notification failed; giving up" : "owner notification failed; trying again");
        if (last) return;
      }
    }
  }
}

/**
 * The welcome e-mail. Its link opens a page that asks before it unsubscribes (a mail scanner that
 * follows links must not unsubscribe anyone); the same address in `List-Unsubscribe`, with
 * `List-Unsubscribe-Post`, lets a mail client unsubscribe in one click by POSTing to it (RFC 8058).
 * MAIL_FROM is usually no mailbox anyone reads, so "reply unsubscribe" was no way out.
 */
function welcomeMail(to: string, unsubscribeUrl: string): MailMessage {
  return {
    to,
    subject: "Welcome to Market Intelligence",
    text: `Hello,\n\nthanks for subscribing. You will hear from us when there is something worth your time.\n\nIf you did not subscribe, or to unsubscribe, open this link:\n${unsubscribeUrl}\n`,
    headers: { "List-Unsubscribe": `<${unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}

/** A failure the channel may get over: no HTTP answer, or a status the model providers' calls retry too. */
function ownerRetryable(err: unknown): boolean {
  const { status } = (err ?? {}) as { status?: unknown };
  return typeof status !== "number" || isRetryableStatus(status);
}

