import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshStoreUrl, startService, type RunningService, type StoreKind } from "../../support/service.js";
import { startSmtp, type RunningSmtp } from "../../support/smtp.js";
import { startReceiver, type RunningReceiver } from "../../support/http-receiver.js";
import { waitFor } from "../../support/wait-for.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";

/** A received message's unfolded header block and its text, quoted-printable decoded. */
function readMail(raw: string): { headers: string; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ").replace(/\r\n/g, "\n");
  let text = raw.slice(split).trim();
  if (/^Content-Transfer-Encoding: quoted-printable$/im.test(headers)) {
    text = text.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return { headers, text };
}

describe.each<StoreKind>(["sqlite", "mongodb"])("newsletter on %s", (kind) => {
  let smtp: RunningSmtp;
  let owner: RunningReceiver;
  let svc: RunningService;
  let storeUrl: string;
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 9, 0, 0));

  const subscribe = (body: unknown, ip = "203.0.113.7") =>
    fetch(`${svc.url}/v1/newsletter/subscribe`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify(body),
    });
  const start = () =>
    startService(
      { STORE_URL: storeUrl, SMTP_URL: smtp.url, MAIL_FROM: "hello@market-intel.test", OWNER_NOTIFY_URL: owner.url, TRUST_PROXY: "1" },
      { wallClock: clock, newsletter: { retryDelaysMs: [20, 20] } },
    );

  beforeAll(async () => {
    smtp = await startSmtp();
    owner = await startReceiver();
    storeUrl = freshStoreUrl(kind, "news");
    svc = await start();
  });
  afterAll(async () => {
    await svc.stop();
    await smtp.stop();
    await owner.stop();
  });

  it("stores a new address, sends one welcome e-mail and notifies the owner without the full address", async () => {
    const res = await subscribe({ email: "Trader.One@Example.com", name: "Trader One" }, "198.51.100.1");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { message: string }).message.length).toBeGreaterThan(0);
    await svc.service.deps.newsletter.drain();
    const mine = smtp.mails.filter((m) => m.to.includes("trader.one@example.com"));
    expect(mine).toHaveLength(1);
    expect(mine[0]?.from).toBe("hello@market-intel.test");
    expect(mine[0]?.raw).toMatch(/Subject: .*[Ww]elcome/);
    // Nobody confirmed the address: the mail carries no word the caller wrote.
    expect(mine[0]?.raw).not.toContain("Trader One");
    await waitFor(async () => owner.received.length >= 1, 5_000, "the owner notification");
    const note = owner.received.map((r) => r.body).join("\n");
    expect(note).toMatch(/subscri/i);
    expect(note).not.toContain("trader.one@example.com");
    // A subscriber's domain is theirs to pick ("@everyone.io"): Discord must ping nobody.
    expect((JSON.parse(owner.received[0]?.body ?? "{}") as { allowed_mentions?: unknown }).allowed_mentions).toEqual({ parse: [] });
    const stored = await svc.service.store.newsletter.get("trader.one@example.com");
    expect(stored?.welcomeSentAt).not.toBeNull();
  });

  it("answers a repeat subscription 200 the same way, without a second e-mail", async () => {
    const res = await subscribe({ email: "trader.one@example.com" }, "198.51.100.2");
    expect(res.status).toBe(200);
    await svc.service.deps.newsletter.drain();
    expect(smtp.mails.filter((m) => m.to.includes("trader.one@example.com"))).toHaveLength(1);
  });

  it("welcomes with an unsubscribe link (in the text, and for one-click unsubscribe in the headers) that asks first, then unsubscribes once", async () => {
    expect((await subscribe({ email: "leaver@example.com" }, "198.51.100.20")).status).toBe(200);
    await svc.service.deps.newsletter.drain();
    const mail = readMail(smtp.mails.find((m) => m.to.includes("leaver@example.com"))?.raw ?? "");
    const link = /^List-Unsubscribe: <([^>]+)>$/im.exec(mail.headers)?.[1] ?? "";
    expect(mail.headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/im);
    // PUBLIC_BASE_URL (left at its default here) starts the link; the text carries the same one.
    expect(link).toMatch(/^http:\/\/localhost:8080\/unsubscribe\?token=[A-Za-z0-9_-]{43}$/);
    expect(mail.text).toContain(link);
    expect(mail.text).not.toMatch(/reply/i);
    const { pathname, search } = new URL(link);
    const here = `${svc.url}${pathname}${search}`;

    // Opening the link (a person, or a mail scanner) asks; it unsubscribes nobody.
    const asked = await fetch(here);
    expect(asked.status).toBe(200);
    expect(asked.headers.get("content-type")).toMatch(/^text\/html/);
    expect(asked.headers.get("cache-control")).toBe("no-store");
    expect(await asked.text()).toMatch(/<form method="post">/);
    expect(await svc.service.store.newsletter.get("leaver@example.com")).not.toBeNull();

    // A mail client's one-click POST (RFC 8058), or the page's button.
    const oneClick = () => fetch(here, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });
    const done = await oneClick();
    expect(done.status).toBe(200);
    expect(await done.text()).toMatch(/unsubscribed/);
    expect(await svc.service.store.newsletter.get("leaver@example.com")).toBeNull();
    expect((await oneClick()).status).toBe(404);

    // A link cut short, or none: nothing happens, and the page says so.
    expect((await fetch(`${svc.url}/unsubscribe?token=${search.slice(7, 30)}`)).status).toBe(400);
    expect((await fetch(`${svc.url}/unsubscribe`, { method: "POST" })).status).toBe(400);
  });

  it("refuses a filled honeypot and an invalid address with 400 {detail: string}, and malformed fields with 422", async () => {
    const bot = await subscribe({ email: "bot@example.com", website: "http://spam" }, "198.51.100.3");
    expect(bot.status).toBe(400);
    expect(typeof ((await bot.json()) as { detail: unknown }).detail).toBe("string");
    expect(await svc.service.store.newsletter.get("bot@example.com")).toBeNull();

    const bad = await subscribe({ email: "not an address" }, "198.51.100.4");
    expect(bad.status).toBe(400);
    expect(typeof ((await bad.json()) as { detail: unknown }).detail).toBe("string");
    // A host without a dot cannot be reached from the internet.
    expect((await subscribe({ email: "trader@localhost" }, "198.51.100.5")).status).toBe(400);
    // WHATWG allows dots anywhere in the local part; SMTP refuses these, so no mail could go out.
    for (const [i, email] of ["a..b@example.com", ".a@example.com", "a.@example.com"].entries()) {
      expect((await subscribe({ email }, `198.51.100.${60 + i}`)).status).toBe(400);
    }

    const malformed = [{}, { email: 42 }, { email: `${"a".repeat(250)}@x.io` }, { email: "a@b.co", name: "n".repeat(101) }, { email: "a@b.co", website: "w".repeat(501) }];
    for (const [i, body] of malformed.entries()) {
      // One IP each: every request, malformed or not, counts toward the 3-per-hour limit.
      const res = await subscribe(body, `198.51.100.${50 + i}`);
      expect(res.status).toBe(422);
      const { detail } = (await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] };
      expect(Array.isArray(detail)).toBe(true);
      expect(detail[0]?.loc[0]).toBe("body");
    }
    // A key the request does not define is named, as in every other body, and nothing is stored.
    const extra = await subscribe({ email: "extra@example.com", role: "admin" }, "198.51.100.90");
    expect(extra.status).toBe(422);
    expect(await extra.json()).toEqual({ detail: [{ loc: ["body", "role"], msg: expect.any(String), type: "extra_forbidden" }] });
    expect(await svc.service.store.newsletter.get("extra@example.com")).toBeNull();
  });

  it("accepts every address a browser's e-mail field accepts: tilde, percent, a punycode top-level domain", async () => {
    const valid = ["first~last@example.com", "user%tag@example.com", "x@example.xn--p1ai"];
    for (const [i, email] of valid.entries()) {
      const res = await subscribe({ email }, `198.51.100.${30 + i}`);
      expect(res.status).toBe(200);
      expect(await svc.service.store.newsletter.get(email)).not.toBeNull();
    }
  });

  it("allows 3 requests per IP in a sliding hour", async () => {
    const ip = "192.0.2.10";
    clock.set(Date.UTC(2026, 10, 22, 10, 0, 0));
    expect((await subscribe({ email: "s1@example.com" }, ip)).status).toBe(200);
    clock.advance(20 * 60_000);
    expect((await subscribe({ email: "s2@example.com" }, ip)).status).toBe(200);
    expect((await subscribe({ email: "s3@example.com" }, ip)).status).toBe(200);
    const over = await subscribe({ email: "s4@example.com" }, ip);
    expect(over.status).toBe(429);
    expect(typeof ((await over.json()) as { detail: unknown }).detail).toBe("string");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    // A fixed window would reset at 11:00; the sliding hour frees the first slot at 11:00 + 1 ms only.
    clock.set(Date.UTC(2026, 10, 22, 10, 59, 0));
    expect((await subscribe({ email: "s4@example.com" }, ip)).status).toBe(429);
    clock.set(Date.UTC(2026, 10, 22, 11, 0, 1));
    expect((await subscribe({ email: "s4@example.com" }, ip)).status).toBe(200);
    expect((await subscribe({ email: "s5@example.com" }, "192.0.2.11")).status).toBe(200);
  });

  it("keeps the subscription when the mail server fails, and sends the welcome after a restart", async () => {
    smtp.failing = true;
    const res = await subscribe({ email: "unlucky@example.com" }, "198.51.100.9");
    expect(res.status).toBe(200);
    await svc.service.deps.newsletter.drain();
    const stored = await svc.service.store.newsletter.get("unlucky@example.com");
    expect(stored).not.toBeNull();
    expect(stored?.welcomeSentAt).toBeNull();
    expect(stored?.welcomeAttempts).toBe(3);
    expect(smtp.mails.some((m) => m.to.includes("unlucky@example.com"))).toBe(false);

    smtp.failing = false;
    await svc.stop();
    svc = await start();
    await svc.service.deps.newsletter.drain();
    expect(smtp.mails.filter((m) => m.to.includes("unlucky@example.com"))).toHaveLength(1);
    expect((await svc.service.store.newsletter.get("unlucky@example.com"))?.welcomeSentAt).not.toBeNull();
  });
});
