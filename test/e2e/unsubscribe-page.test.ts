import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { startService, type RunningService } from "../support/service.js";
import { startSmtp, type RunningSmtp } from "../support/smtp.js";
import { launchBrowser, watchProblems } from "./support/browser.js";

let svc: RunningService;
let smtp: RunningSmtp;
let browser: Browser;

beforeAll(async () => {
  smtp = await startSmtp();
  svc = await startService({ SMTP_URL: smtp.url, MAIL_FROM: "hello@market-intel.test" }, { newsletter: { retryDelaysMs: [] } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await svc?.stop();
  await smtp?.stop();
});

/** The welcome's link as the reader's browser would open it: the mail's `List-Unsubscribe`, on this server. */
async function welcomeLink(email: string): Promise<string> {
  await svc.service.deps.newsletter.subscribe(email, null);
  await svc.service.deps.newsletter.drain();
  const raw = smtp.mails.find((m) => m.to.includes(email))?.raw.replace(/\r?\n[ \t]+/g, " ") ?? "";
  const link = new URL(/^List-Unsubscribe: <([^>]+)>/im.exec(raw)?.[1] ?? "http://missing/");
  return `${svc.url}${link.pathname}${link.search}`;
}

describe("the unsubscribe page in Chromium", () => {
  it("asks, and unsubscribes when its button is pressed, within the page's Content-Security-Policy", async () => {
    const link = await welcomeLink("reader@example.com");
    const page = await browser.newPage();
    const problems = watchProblems(page);
    try {
      await page.goto(link);
      expect(await page.locator("h1").textContent()).toMatch(/Unsubscribe/);
      // Opening the page changed nothing.
      expect(await svc.service.store.newsletter.get("reader@example.com")).not.toBeNull();
      const [answer] = await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Unsubscribe" }).click()]);
      expect(answer?.status()).toBe(200);
      expect(answer?.request().method()).toBe("POST");
      expect(await page.locator("h1").textContent()).toBe("You are unsubscribed");
      expect(await svc.service.store.newsletter.get("reader@example.com")).toBeNull();
      // A form-action the CSP refused would show here, and the store would still hold the address.
      expect(problems.errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
