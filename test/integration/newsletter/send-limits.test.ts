import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import { MAX_WELCOME_ATTEMPTS, NewsletterService, type NewsletterOptions } from "../../../src/application/newsletter.js";
import { smtpMailer } from "../../../src/notify/mailer.js";
import { logOwnerNotifier } from "../../../src/notify/owner-notifier.js";
import { createLogger } from "../../../src/logging/logger.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { freshStoreUrl, type StoreKind } from "../../support/service.js";
import { startSmtp, type RunningSmtp } from "../../support/smtp.js";
import { freePort } from "../../support/free-port.js";
import { waitFor } from "../../support/wait-for.js";

const HOUR = 3_600_000;

/**
 * What a sign-up may make the service send, on the real store and a real SMTP server: an address
 * nobody confirmed must not become a way to flood somebody's inbox, and a welcome must neither be
 * lost to a short outage nor retried without end. One send at a time: FerretDB updates a document
 * non-atomically (DECISIONS 6), and the concurrent case is welcome-once.test.ts's.
 */
describe.each<StoreKind>(["sqlite", "mongodb"])("welcome e-mail limits on %s", (kind) => {
  let smtp: RunningSmtp;
  let store: Store;
  const clock = new ManualClock(Date.UTC(2026, 10, 27, 9, 30, 0));
  const logger = createLogger("silent");
  const services: NewsletterService[] = [];
  const service = (options: Partial<NewsletterOptions> = {}) => {
    const s = new NewsletterService(store.newsletter, store.counters, smtpMailer(smtp.url, "hello@market-intel.test"), logOwnerNotifier(logger), clock, logger, {
      retryDelaysMs: [],
      ...options,
    });
    services.push(s);
    return s;
  };
  const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email)).length;

  beforeAll(async () => {
    smtp = await startSmtp();
    store = await openStore(freshStoreUrl(kind, "send-limits"));
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop(1_000)));
    await store.close();
    await smtp.stop();
  });

  it("sends one mailbox at most two welcomes a day, however its address is tagged; the rest go out the next day", async () => {
    const news = service();
    const tagged = ["victim@example.net", "victim+1@example.net", "Victim+2@Example.net", "victim+3@example.net"].map((e) => e.toLowerCase());
    for (const email of tagged) {
      await news.subscribe(email, null);
      await news.drain();
    }
    expect(tagged.map(mailsTo).reduce((a, b) => a + b, 0)).toBe(2);
    // Held back, not failed: no attempt was counted against them.
    const pending = await store.newsletter.pendingWelcome(MAX_WELCOME_ATTEMPTS);
    expect(pending.filter((p) => tagged.includes(p.email)).map((p) => p.welcomeAttempts)).toEqual([0, 0]);
    clock.advance(24 * HOUR);
    news.resumePending();
    await news.drain();
    expect(tagged.map(mailsTo)).toEqual([1, 1, 1, 1]);
  });

  it("sends at most its hourly number of welcomes across the service, and the next hour's sweep sends the rest", async () => {
    clock.set(Date.UTC(2026, 10, 29, 10, 0, 0));
    const news = service({ sendLimits: { perHour: 3, perMailboxPerDay: 2 } });
    const emails = Array.from({ length: 5 }, (_, i) => `hourly${i}@example.org`);
    for (const email of emails) {
      await news.subscribe(email, null);
      await news.drain();
    }
    expect(emails.map(mailsTo).reduce((a, b) => a + b, 0)).toBe(3);
    clock.advance(HOUR);
    news.resumePending();
    await news.drain();
    expect(emails.map(mailsTo)).toEqual([1, 1, 1, 1, 1]);
  });

  it("a refused send gives its place back: a failing server does not use up a mailbox's day", async () => {
    clock.set(Date.UTC(2026, 10, 30, 10, 0, 0));
    const news = service();
    smtp.failing = true;
    await news.subscribe("retry@example.com", null);
    await news.drain();
    news.resumePending();
    await news.drain();
    smtp.failing = false;
    // Two failed attempts today; the mailbox's two places are still free.
    expect((await store.newsletter.get("retry@example.com"))?.welcomeAttempts).toBe(2);
    news.resumePending();
    await news.drain();
    expect(mailsTo("retry@example.com")).toBe(1);
  });

  it("makes at most five attempts at one welcome over every sign-up run, sweep and replica", async () => {
    clock.set(Date.UTC(2026, 11, 1, 10, 0, 0));
    smtp.failing = true;
    const a = service({ retryDelaysMs: [1, 1, 1] });
    await a.subscribe("doomed@example.com", null);
    await a.drain();
    expect((await store.newsletter.get("doomed@example.com"))?.welcomeAttempts).toBe(4);
    const b = service();
    for (let sweep = 0; sweep < 3; sweep++) {
      for (const replica of [a, b]) {
        replica.resumePending();
        await replica.drain();
      }
    }
    smtp.failing = false;
    expect((await store.newsletter.get("doomed@example.com"))?.welcomeAttempts).toBe(MAX_WELCOME_ATTEMPTS);
    a.resumePending();
    await a.drain();
    expect(mailsTo("doomed@example.com")).toBe(0);
  });

  it("a stopping instance gives its claims back, so a replacement sends at once instead of two minutes later", async () => {
    clock.set(Date.UTC(2026, 11, 2, 10, 0, 0));
    smtp.failing = true;
    // Waits 60 s before its second attempt: stopped in that wait, it still holds the claim.
    const old = service({ retryDelaysMs: [60_000] });
    await old.subscribe("handover@example.com", null);
    await waitFor(async () => (await store.newsletter.get("handover@example.com"))?.welcomeAttempts === 1, 2_000, "the old instance's first, failed attempt");
    smtp.failing = false;
    await old.stop(5_000);
    const replacement = service();
    replacement.resumePending();
    await replacement.drain();
    expect(mailsTo("handover@example.com")).toBe(1);
  });
});

/**
 * A real SMTP server whose behaviour the test sets: whether it accepts the login, and how long
 * it holds each message before accepting it.
 */
async function configurableSmtp(): Promise<{ url: string; accepted: string[]; holding: string[]; settings: { acceptLogin: boolean; holdMs: number }; stop: () => Promise<void> }> {
  const accepted: string[] = [];
  /** Recipients of messages received in full and not yet answered (held for `holdMs`). */
  const holding: string[] = [];
  const settings = { acceptLogin: true, holdMs: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(_auth, _session, callback) {
      if (settings.acceptLogin) return callback(null, { user: "relay" });
      callback(Object.assign(new Error("5.7.8 Authentication credentials invalid"), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        holding.push(...to);
        setTimeout(() => {
          for (const address of to) holding.splice(holding.indexOf(address), 1);
          accepted.push(...to);
          callback();
        }, settings.holdMs);
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  return { url: `smtp://relay:pass@127.0.0.1:${port}?requireTLS=false`, accepted, holding, settings, stop: () => new Promise<void>((r) => server.close(() => r())) };
}

describe.each<StoreKind>(["sqlite", "mongodb"])("welcome e-mails against a misconfigured or slow mail server on %s", (kind) => {
  let store: Store;
  let smtp: Awaited<ReturnType<typeof configurableSmtp>>;
  const clock = new ManualClock(Date.UTC(2026, 11, 5, 10, 0, 0));
  const logger = createLogger("silent");
  const services: NewsletterService[] = [];
  const service = () => {
    const s = new NewsletterService(store.newsletter, store.counters, smtpMailer(smtp.url, "hello@market-intel.test"), logOwnerNotifier(logger), clock, logger, { retryDelaysMs: [] });
    services.push(s);
    return s;
  };

  beforeAll(async () => {
    smtp = await configurableSmtp();
    store = await openStore(freshStoreUrl(kind, "smtp-config"));
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop(1_000)));
    await store.close();
    await smtp.stop();
  });

  it("keeps retrying a welcome the server refused for a wrong password, and sends it once the password is mended", async () => {
    smtp.settings.acceptLogin = false;
    const news = service();
    await news.subscribe("patient@example.com", null);
    await news.drain();
    // A 535 is the sender's to mend, not the recipient's final word: one attempt counted, not five.
    expect((await store.newsletter.get("patient@example.com"))?.welcomeAttempts).toBe(1);
    smtp.settings.acceptLogin = true;
    news.resumePending();
    await news.drain();
    expect(smtp.accepted.filter((a) => a === "patient@example.com")).toHaveLength(1);
  });

  it("sends one welcome when a sweep comes round while this process is still sending it", async () => {
    smtp.settings.holdMs = 400;
    const news = service();
    await news.subscribe("once@example.com", null);
    // The sign-up's send is in the server's hands (its body received, not yet accepted); the
    // sweep (every 15 minutes) fires now.
    await waitFor(async () => smtp.holding.includes("once@example.com"), 2_000, "the server to hold the sign-up's message");
    news.resumePending();
    await news.drain();
    smtp.settings.holdMs = 0;
    expect(smtp.accepted.filter((a) => a === "once@example.com")).toHaveLength(1);
  });
});
