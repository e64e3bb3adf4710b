import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import { NewsletterService } from "../../../src/application/newsletter.js";
import { smtpMailer } from "../../../src/notify/mailer.js";
import { logOwnerNotifier } from "../../../src/notify/owner-notifier.js";
import { createLogger } from "../../../src/logging/logger.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { freshStoreUrl, type StoreKind } from "../../support/service.js";
import { startSmtp, type RunningSmtp } from "../../support/smtp.js";
import { captureLogger } from "../../support/capture-logger.js";
import type { NewsletterRepository } from "../../../src/store/ports/newsletter.js";

/**
 * Two replicas on one store, each with its own connection and its own NewsletterService, as two
 * processes have: every start resumes the pending welcome e-mails, and each must go out once.
 */
describe.each<StoreKind>(["sqlite", "mongodb"])("welcome e-mails across replicas on %s", (kind) => {
  let smtp: RunningSmtp;
  let url: string;
  const stores: Store[] = [];
  const clock = new ManualClock(Date.UTC(2026, 10, 26, 9, 0, 0));
  const logger = createLogger("silent");
  const replica = async () => {
    const store = await openStore(url);
    stores.push(store);
    return { store, newsletter: new NewsletterService(store.newsletter, store.counters, smtpMailer(smtp.url, "hello@market-intel.test"), logOwnerNotifier(logger), clock, logger, { retryDelaysMs: [] }) };
  };
  const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email)).length;

  beforeAll(async () => {
    smtp = await startSmtp();
    url = freshStoreUrl(kind, "welcome-once");
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await smtp.stop();
  });

  // Concurrent claims need single-document atomicity, which FerretDB lacks (DECISIONS 6): this
  // test runs on SQLite and on a real MongoDB named by MONGODB_URL; on FerretDB the sequential
  // tests below pin the claim rules.
  if (kind === "sqlite" || process.env.MONGODB_URL) {
    it("sends each pending welcome once when two replicas resume them at the same time", async () => {
      const [a, b] = [await replica(), await replica()];
      const emails = Array.from({ length: 12 }, (_, i) => `pending${i}@example.com`);
      for (const email of emails) await a.store.newsletter.subscribe(email, null, new Date(clock.now()).toISOString());
      await Promise.all([a.newsletter.resumePending(), b.newsletter.resumePending()]);
      await Promise.all([a.newsletter.drain(), b.newsletter.drain()]);
      expect(emails.map(mailsTo)).toEqual(emails.map(() => 1));
      for (const email of emails) expect((await a.store.newsletter.get(email))?.welcomeSentAt).not.toBeNull();
      // Sent is sent: a later start resumes nothing.
      const c = await replica();
      await c.newsletter.resumePending();
      await c.newsletter.drain();
      expect(emails.map(mailsTo)).toEqual(emails.map(() => 1));
    });
  }

  it("leaves a welcome another replica is sending alone, and takes it over once that claim lapses", async () => {
    const [a, b] = [await replica(), await replica()];
    await a.store.newsletter.subscribe("held@example.com", null, new Date(clock.now()).toISOString());
    // A replica that claimed the address and died before sending.
    expect(await a.store.newsletter.claimWelcome("held@example.com", "a-replica-that-died", clock.now(), 120_000, 5)).toBe(true);
    await b.newsletter.resumePending();
    await b.newsletter.drain();
    expect(mailsTo("held@example.com")).toBe(0);
    clock.advance(120_001);
    await b.newsletter.resumePending();
    await b.newsletter.drain();
    expect(mailsTo("held@example.com")).toBe(1);
  });

  it("logs a store that fails under a background welcome instead of crashing, and the next start sends it", async () => {
    const { logger: captured, lines } = captureLogger("warn");
    const store = await openStore(url);
    stores.push(store);
    // The real store, busy once when the job claims the address (the CLI writing, a failover).
    let busy = true;
    const flaky: NewsletterRepository = Object.assign(Object.create(store.newsletter) as NewsletterRepository, {
      claimWelcome: (...args: Parameters<NewsletterRepository["claimWelcome"]>) => {
        if (!busy) return store.newsletter.claimWelcome(...args);
        busy = false;
        return Promise.reject(Object.assign(new Error("database is locked: busy@example.com"), { code: "SQLITE_BUSY" }));
      },
    });
    const service = new NewsletterService(flaky, store.counters, smtpMailer(smtp.url, "hello@market-intel.test"), logOwnerNotifier(captured), clock, captured, { retryDelaysMs: [] });
    expect(await service.subscribe("busy@example.com", null)).toBe(true);
    await service.drain();
    expect(mailsTo("busy@example.com")).toBe(0);
    const failed = lines.filter((l) => l.msg === "welcome e-mail job failed; a later sweep tries again");
    expect(failed).toHaveLength(1);
    // The error's kind and code only: its message quoted the address.
    expect(JSON.stringify(lines)).not.toContain("busy@example.com");
    await service.resumePending();
    await service.drain();
    expect(mailsTo("busy@example.com")).toBe(1);
  });

  it("gives the claim up when every attempt failed, so the next start tries at once", async () => {
    const [a, b] = [await replica(), await replica()];
    await a.store.newsletter.subscribe("unlucky@example.com", null, new Date(clock.now()).toISOString());
    smtp.failing = true;
    await a.newsletter.resumePending();
    await a.newsletter.drain();
    smtp.failing = false;
    expect((await a.store.newsletter.get("unlucky@example.com"))?.welcomeAttempts).toBe(1);
    await b.newsletter.resumePending();
    await b.newsletter.drain();
    expect(mailsTo("unlucky@example.com")).toBe(1);
  });
});
