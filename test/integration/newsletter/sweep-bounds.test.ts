import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import { NewsletterService, WELCOME_WINDOW_MS, type NewsletterOptions } from "../../../src/application/newsletter.js";
import { smtpMailer } from "../../../src/notify/mailer.js";
import type { OwnerNotifier } from "../../../src/notify/owner-notifier.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { captureLogger } from "../../support/capture-logger.js";
import { freshStoreUrl, type StoreKind } from "../../support/service.js";
import { startSmtp, type RunningSmtp } from "../../support/smtp.js";

const HOUR = 3_600_000;

/**
 * What sign-ups from many networks can make the welcome sweep and the owner's channel do, on the
 * real store and a real SMTP server: a sweep's work ends where the service's hourly number does,
 * a welcome is not sent days after its sign-up, and the owner's pings have an hourly number too.
 */
describe.each<StoreKind>(["sqlite", "mongodb"])("the welcome sweep's bounds on %s", (kind) => {
  let smtp: RunningSmtp;
  let store: Store;
  const clock = new ManualClock(Date.UTC(2026, 11, 1, 10, 0, 0));
  const captured = captureLogger();
  const pings: string[] = [];
  const owner: OwnerNotifier = { notify: async (text) => void pings.push(text) };
  const services: NewsletterService[] = [];
  const service = (options: Partial<NewsletterOptions>) => {
    const s = new NewsletterService(store.newsletter, store.counters, smtpMailer(smtp.url, "hello@market-intel.test"), owner, clock, captured.logger, { retryDelaysMs: [], ...options });
    services.push(s);
    return s;
  };
  const sent = (prefix: string) => smtp.mails.filter((m) => m.to.some((to) => to.startsWith(prefix))).length;
  const heldBack = () => captured.lines.filter((l) => l.msg === "welcome e-mail held back by the send limits; a later sweep sends it").length;

  beforeAll(async () => {
    smtp = await startSmtp();
    store = await openStore(freshStoreUrl(kind, "sweep-bounds"));
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop(1_000)));
    await store.close();
    await smtp.stop();
  });

  it("ends a sweep at the first welcome the service's hour holds back, and sends none three days after its sign-up", async () => {
    const news = service({ sendLimits: { perHour: 1, perMailboxPerDay: 2 } });
    for (let i = 0; i < 6; i++) {
      await news.subscribe(`sweep${i}@example.org`, null);
      await news.drain();
    }
    expect(sent("sweep")).toBe(1);
    // Same hour: the sweep's first address is held back, and it looks at no other (five before).
    const before = heldBack();
    news.resumePending();
    await news.drain();
    expect(heldBack() - before).toBe(1);
    // Next hour: one more goes out, oldest first.
    clock.advance(HOUR);
    news.resumePending();
    await news.drain();
    expect(sent("sweep")).toBe(2);
    expect(smtp.mails.at(-1)?.to).toEqual(["sweep1@example.org"]);
    // Three days after the sign-ups: the four still waiting are not welcomed any more, and stay subscribed.
    clock.set(Date.UTC(2026, 11, 1, 10, 0, 0) + WELCOME_WINDOW_MS + HOUR);
    news.resumePending();
    await news.drain();
    expect(sent("sweep")).toBe(2);
    expect(await store.newsletter.get("sweep5@example.org")).toMatchObject({ email: "sweep5@example.org", welcomeSentAt: null });
  });

  it("goes on where the last sweep ended: sign-ups a mailbox's daily number holds back do not keep later ones from their turn", async () => {
    clock.set(Date.UTC(2026, 11, 4, 10, 0, 0));
    const news = service({ sendLimits: { perHour: 100, perMailboxPerDay: 1 }, sweepBatch: 2 });
    await news.subscribe("target@example.net", null);
    await news.drain();
    expect(sent("target")).toBe(1);
    // Stored earlier than a later reader's sign-up, and held back by the target mailbox's day.
    await store.newsletter.subscribe("target+1@example.net", null, new Date(clock.now() + 1_000).toISOString());
    await store.newsletter.subscribe("target+2@example.net", null, new Date(clock.now() + 2_000).toISOString());
    await store.newsletter.subscribe("reader@example.com", null, new Date(clock.now() + 3_000).toISOString());
    clock.advance(60_000);
    news.resumePending();
    await news.drain();
    expect(sent("reader")).toBe(0);
    news.resumePending();
    await news.drain();
    expect(sent("reader")).toBe(1);
    expect(sent("target")).toBe(1);
  });

  it("pings the owner at most its hourly number of times; every sign-up is still stored and welcomed", async () => {
    clock.set(Date.UTC(2026, 11, 8, 10, 0, 0));
    pings.length = 0;
    const news = service({ ownerPingsPerHour: 2 });
    for (let i = 0; i < 4; i++) {
      await news.subscribe(`ping${i}@example.org`, null);
      await news.drain();
    }
    expect(pings).toHaveLength(2);
    expect(sent("ping")).toBe(4);
    expect(captured.lines.filter((l) => l.msg === "owner notification skipped: this hour's are spent")).toHaveLength(2);
    clock.advance(HOUR);
    await news.subscribe("ping4@example.org", null);
    await news.drain();
    expect(pings).toHaveLength(3);
  });
});
