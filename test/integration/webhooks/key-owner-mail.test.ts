import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KeyIssuer } from "../../../src/application/key-issuer.js";
import { KeyOwnerMail } from "../../../src/application/key-owner-mail.js";
import { hashedMailboxTag } from "../../../src/application/mail-send-windows.js";
import { noticeMail, noticeOnDisable } from "../../../src/domain/webhooks/owner-notice.js";
import { createSubscription, recordAttempt } from "../../../src/domain/webhooks/subscription.js";
import { createLogger } from "../../../src/logging/logger.js";
import { smtpMailer } from "../../../src/notify/mailer.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import { freshStoreUrl, type StoreKind } from "../../support/service.js";
import { startSmtp, type RunningSmtp } from "../../support/smtp.js";

const T0 = Date.UTC(2026, 2, 23, 9, 0, 0);

/** The notice a 410 leaves owed, worded as the actor mails it. */
function goneNotice(ownerKeyId: string) {
  const created = createSubscription({ id: "wh_owner", ownerKeyId, url: "https://hooks.example.com/x", events: ["verdict.new"], secret: "whsec_x", now: T0 });
  const gone = recordAttempt(created, { kind: "failure", statusCode: 410, error: "http_status", durationMs: 5 }, T0);
  const notice = noticeOnDisable(gone, T0);
  if (notice === null) throw new Error("no notice owed");
  return noticeMail(gone, notice, "https://api.example.com");
}

/** Mail to a key's owner, through a real SMTP server and the store's shared counters. */
describe.each<StoreKind>(["sqlite", "mongodb"])("mail to a key owner on %s", (kind) => {
  let smtp: RunningSmtp;
  let store: Store;
  let clock: ManualClock;
  let owners: KeyOwnerMail;
  let issuer: KeyIssuer;

  beforeAll(async () => {
    smtp = await startSmtp();
    store = await openStore(freshStoreUrl(kind, "owner-mail"));
    clock = new ManualClock(T0);
    issuer = new KeyIssuer(store.apiKeys, clock);
    const mailer = smtpMailer(smtp.url, "hello@market-intel.test");
    owners = new KeyOwnerMail(store.apiKeys, store.counters, mailer, clock, createLogger("silent"), hashedMailboxTag, { perHour: 100, perMailboxPerDay: 2 });
  });
  afterAll(async () => {
    await store.close();
    await smtp.stop();
  });

  it("mails the address the lineage's active key was generated with, after a rotation too", async () => {
    const first = await issuer.create("basic", "Olga Owner", "olga@example.org");
    await issuer.rotate(first.apiKey, first.record);
    const mail = goneNotice(first.record.usageId);
    expect(await owners.send(first.record.usageId, mail)).toBe("sent");
    expect(smtp.mails.map((m) => m.to)).toEqual([["olga@example.org"]]);
    const raw = smtp.mails[0]?.raw ?? "";
    expect(raw).toContain("Subject: Your webhook subscription was disabled");
    expect(raw).toContain("wh_owner");
    expect(raw).not.toContain("hooks.example.com");
  });

  it("has nobody to tell for a key generated without an address or a lineage with no active key", async () => {
    const anonymous = await issuer.create("free", null, null);
    expect(await owners.send(anonymous.record.usageId, goneNotice(anonymous.record.usageId))).toBe("no_address");
    const closed = await issuer.create("free", "Pat", "pat@example.org");
    await store.apiKeys.deactivate(closed.record.hash, new Date(T0).toISOString());
    expect(await owners.send(closed.record.usageId, goneNotice(closed.record.usageId))).toBe("no_address");
    expect(smtp.mails.filter((m) => m.to.includes("pat@example.org"))).toHaveLength(0);
  });

  it("reports a failing mail server as failed and gives its places back; a refused address as nobody to tell", async () => {
    const key = await issuer.create("basic", "Quinn", "quinn@example.org");
    smtp.failing = true;
    try {
      expect(await owners.send(key.record.usageId, goneNotice(key.record.usageId))).toBe("failed");
    } finally {
      smtp.failing = false;
    }
    // Two a day for this mailbox: the failed send did not use one.
    expect(await owners.send(key.record.usageId, goneNotice(key.record.usageId))).toBe("sent");
    expect(await owners.send(key.record.usageId, goneNotice(key.record.usageId))).toBe("sent");
    expect(await owners.send(key.record.usageId, goneNotice(key.record.usageId))).toBe("held_back");
    expect(smtp.mails.filter((m) => m.to.includes("quinn@example.org"))).toHaveLength(2);

    const refused = await issuer.create("basic", "Rae", "rae@example.org");
    smtp.refusedRecipients.add("rae@example.org");
    expect(await owners.send(refused.record.usageId, goneNotice(refused.record.usageId))).toBe("no_address");
  });
});
