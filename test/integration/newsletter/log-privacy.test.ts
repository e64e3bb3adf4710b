import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogger, type CapturedLogger } from "../../support/capture-logger.js";
import { startService, type RunningService } from "../../support/service.js";
import { startSmtp, type RunningSmtp } from "../../support/smtp.js";

/**
 * Audit 2026-11-26, finding 4: a failed welcome e-mail or owner notification is logged by kind
 * (name, code, reply code), never by message, because the messages quote the subscriber's full
 * address and the secret OWNER_NOTIFY_URL.
 */

const ADDRESS = "dave.secret@example.org";
// Unreachable (port 1 on loopback), shaped like a Slack incoming webhook: the path is the secret.
const OWNER_URL = "https://127.0.0.1:1/services/T0SECRET/B0SECRET/xoxSecretToken";

let smtp: RunningSmtp;
let svc: RunningService;
let log: CapturedLogger;

beforeAll(async () => {
  smtp = await startSmtp();
  smtp.refusedRecipients.add(ADDRESS);
  log = captureLogger("info");
  svc = await startService(
    { SMTP_URL: smtp.url, MAIL_FROM: "hello@market-intel.test", OWNER_NOTIFY_URL: OWNER_URL },
    { logger: log.logger, newsletter: { retryDelaysMs: [10] }, capabilities: [] },
  );
});

afterAll(async () => {
  await svc.stop();
  await smtp.stop();
});

describe("newsletter failures in the log", () => {
  it("name the failure's kind and carry neither the address nor the notification URL", async () => {
    const res = await fetch(`${svc.url}/v1/newsletter/subscribe`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: ADDRESS, name: "Dave" }),
    });
    expect(res.status).toBe(200);
    await svc.service.deps.newsletter.drain();

    const welcome = log.lines.filter((l) => l.msg === "welcome e-mail failed");
    // A 550 is the server's final word: no second attempt, in this run or any later sweep's.
    expect(welcome).toHaveLength(1);
    expect((await svc.service.store.newsletter.get(ADDRESS))?.welcomeAttempts).toBe(5);
    expect(log.lines.some((l) => l.msg === "welcome e-mail not delivered; giving up")).toBe(true);
    expect(welcome[0]).toMatchObject({ err: { name: "Error", code: "EENVELOPE", command: "RCPT TO", responseCode: 550 }, to: "d***@example.org" });
    // No connection is a failure the channel may get over: tried again after the welcome's delay.
    const owner = log.lines.filter((l) => typeof l.msg === "string" && l.msg.startsWith("owner notification failed"));
    expect(owner.map((l) => l.msg)).toEqual(["owner notification failed; trying again", "owner notification failed; giving up"]);
    for (const line of owner) expect(line).toMatchObject({ err: { name: "FetchError", code: "ECONNREFUSED" } });

    const written = JSON.stringify(log.lines);
    for (const secret of ["dave.secret", "T0SECRET", "B0SECRET", "xoxSecretToken", "127.0.0.1:1/"]) expect(written).not.toContain(secret);
  });
});
