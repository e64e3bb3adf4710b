import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureLogger } from "../../support/capture-logger.js";
import { startService, type RunningService } from "../../support/service.js";
import { waitFor } from "../../support/wait-for.js";

interface Line {
  readonly msg: string;
  readonly req_id?: string;
  readonly notification?: string;
}

/**
 * An operator holding a caller's X-Request-Id finds every line the service wrote for that request,
 * including those its services wrote after the answer went out (the newsletter's welcome e-mail
 * and owner notification), and no line of another request.
 */
describe("log lines written for a request carry its id", () => {
  let svc: RunningService;
  const captured = captureLogger();
  const lines = captured.lines as unknown as readonly Line[];

  beforeAll(async () => {
    // No SMTP_URL and no OWNER_NOTIFY_URL: the mailer and the notifier log what they would send.
    svc = await startService({}, { logger: captured.logger });
  });
  afterAll(() => svc.stop());

  it("names the subscribe request on the lines its background e-mail and notification write, each request its own", async () => {
    const subscribe = async (email: string) => {
      const res = await fetch(`${svc.url}/v1/newsletter/subscribe`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email }),
      });
      expect(res.status).toBe(200);
      return res.headers.get("x-request-id") as string;
    };
    const [first, second] = await Promise.all([subscribe("alpha.context@example.com"), subscribe("omega.context@example.com")]);
    expect(first).not.toBe(second);
    const notified = () => lines.filter((l) => l.msg.startsWith("owner notification"));
    await waitFor(async () => notified().length >= 2, 10_000, "two owner notifications");
    const byRequest = new Map(notified().map((l) => [l.req_id, l.notification]));
    expect(byRequest.get(first)).toMatch(/^New newsletter subscriber: a/);
    expect(byRequest.get(second)).toMatch(/^New newsletter subscriber: o/);
    for (const id of [first, second]) {
      const mine = lines.filter((l) => l.req_id === id).map((l) => l.msg);
      expect(mine).toContain("request");
      expect(mine.some((m) => m.startsWith("e-mail not sent"))).toBe(true);
    }
  });

  it("keeps a caller's own request id, but never one shaped like a key", async () => {
    const key = "svc_pro_" + "A1b2C3d4E5f6G7h8I9j0";
    const sent = async (id: string) => (await fetch(`${svc.url}/v1/health`, { headers: { "x-request-id": id } })).headers.get("x-request-id");
    expect(await sent("trace-0123456789")).toBe("trace-0123456789");
    const replaced = await sent(key);
    expect(replaced).not.toBe(key);
    expect(replaced).toMatch(/^[A-Za-z0-9_-]+-[0-9a-z]+$/);
    expect(JSON.stringify(lines)).not.toContain(key);
    expect(lines.some((l) => l.msg === "request" && l.req_id === replaced)).toBe(true);
  });
});
