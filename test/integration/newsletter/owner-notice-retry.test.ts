import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import { NewsletterService } from "../../../src/application/newsletter.js";
import { smtpMailer } from "../../../src/notify/mailer.js";
import { webhookOwnerNotifier } from "../../../src/notify/owner-notifier.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { freshStoreUrl } from "../../support/service.js";
import { startSmtp, type RunningSmtp } from "../../support/smtp.js";
import { startReceiver, type RunningReceiver } from "../../support/http-receiver.js";
import { captureLogger } from "../../support/capture-logger.js";

/**
 * The owner's sign-up notice over a real HTTP channel (an incoming-webhook endpoint on loopback)
 * that fails for a while: SPEC 19 notifies the owner of every new address, and a channel's
 * short outage lost that one ping.
 */
describe("the owner's notice of a sign-up", () => {
  let smtp: RunningSmtp;
  let store: Store;
  const receivers: RunningReceiver[] = [];
  const clock = new ManualClock(Date.UTC(2026, 10, 29, 9, 0, 0));

  beforeAll(async () => {
    smtp = await startSmtp();
    store = await openStore(freshStoreUrl("sqlite", "owner-notice"));
  });
  afterAll(async () => {
    await store.close();
    await smtp.stop();
    await Promise.all(receivers.map((r) => r.stop()));
  });

  const service = async (statuses: readonly number[]) => {
    const channel = await startReceiver(200, statuses);
    receivers.push(channel);
    const log = captureLogger();
    const newsletter = new NewsletterService(store.newsletter, store.counters, smtpMailer(smtp.url, "hello@market-intel.test"), webhookOwnerNotifier(channel.url), clock, log.logger, { retryDelaysMs: [20, 20, 20] });
    return { channel, log, newsletter };
  };

  it("is sent again while the channel answers 503 and 429, and arrives once it answers 200", async () => {
    const { channel, log, newsletter } = await service([503, 429]);
    await newsletter.subscribe("first@example.com", null);
    await newsletter.drain();
    expect(channel.received.map((r) => JSON.parse(r.body) as { text: string }).map((b) => b.text)).toEqual(Array(3).fill("New newsletter subscriber: f***@example.com"));
    expect(log.lines.filter((l) => l.msg === "owner notification failed; trying again")).toHaveLength(2);
    expect(log.lines.filter((l) => l.msg === "owner notification failed; giving up")).toHaveLength(0);
    // Neither the channel's URL (a secret) nor the address reached the log.
    expect(JSON.stringify(log.lines)).not.toContain(channel.url);
    expect(JSON.stringify(log.lines)).not.toContain("first@example.com");
  });

  it("is not sent again when the channel answers 404 (a deleted webhook is the operator's to mend)", async () => {
    const { channel, log, newsletter } = await service([404, 404]);
    await newsletter.subscribe("second@example.com", null);
    await newsletter.drain();
    expect(channel.received).toHaveLength(1);
    expect(log.lines.filter((l) => l.msg === "owner notification failed; giving up")).toHaveLength(1);
  });

  it("gives up after the welcome's attempts when the channel stays down, and says so once", async () => {
    const { channel, log, newsletter } = await service([500, 500, 500, 500, 500]);
    await newsletter.subscribe("third@example.com", null);
    await newsletter.drain();
    expect(channel.received).toHaveLength(4);
    expect(log.lines.filter((l) => l.msg === "owner notification failed; giving up")).toHaveLength(1);
    // The welcome e-mail does not wait on the channel.
    expect(smtp.mails.filter((m) => m.to.includes("third@example.com"))).toHaveLength(1);
  });
});
