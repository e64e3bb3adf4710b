import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { createKey, startService, type RunningService } from "../support/service.js";
import { launchBrowser, watchProblems } from "./support/browser.js";
import { ARTIFACTS, WEB_DIR, buildWeb } from "./support/web-build.js";

// Anything shaped like an API key or a webhook secret, and any key issued during this run.
const SECRET_SHAPES = [/svc_(free|basic|pro)_[A-Za-z0-9]{20}/, /whsec_[A-Za-z0-9+/=]{16,}/];

let svc: RunningService;
let browser: Browser;
let issuedKeys: string[];

function builtFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? builtFiles(path) : /\.(html|js|css)$/.test(name) ? [path] : [];
  });
}

beforeAll(async () => {
  buildWeb();
  // Secrets in the environment must not reach a served asset either.
  // (A whole provider, as configuration requires; nothing listens on port 9, so no model answers.)
  svc = await startService({ LLM_BASE_URL: "http://127.0.0.1:9/v1", LLM_MODEL: "none", LLM_API_KEY: "sk-test-llm-secret-do-not-serve" });
  issuedKeys = [await createKey(svc, "free"), await createKey(svc, "basic"), await createKey(svc, "pro")];
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await svc?.stop();
});

describe("served assets", () => {
  it("contain no API key, webhook secret or configured secret", async () => {
    const files = builtFiles(WEB_DIR);
    expect(files.length).toBeGreaterThanOrEqual(5);
    const served = ["/", "/docs", ...files.filter((f) => f.includes(`${WEB_DIR}/assets/`)).map((f) => `/assets/${f.slice(f.lastIndexOf("/") + 1)}`)];
    const bodies: [string, string][] = files.map((f) => [f, readFileSync(f, "utf8")]);
    for (const path of served) {
      const res = await fetch(`${svc.url}${path}`);
      expect(res.status, path).toBe(200);
      bodies.push([path, await res.text()]);
    }
    for (const [where, body] of bodies) {
      for (const shape of SECRET_SHAPES) expect(shape.test(body), `${where} matches ${shape}`).toBe(false);
      for (const key of issuedKeys) expect(body.includes(key), `${where} contains an issued key`).toBe(false);
      expect(body.includes("sk-test-llm-secret-do-not-serve"), where).toBe(false);
    }
  });

  it("serves pre-compressed assets with the right types and never leaves the build directory", async () => {
    const js = await fetch(`${svc.url}/assets/app.js`, { headers: { "accept-encoding": "gzip" } });
    expect(js.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(js.headers.get("content-encoding")).toBe("gzip");
    const traversal = await fetch(`${svc.url}/assets/..%2F..%2Fpackage.json`);
    expect(traversal.status).toBe(404);
    const missing = await fetch(`${svc.url}/assets/nope.js`);
    expect(missing.status).toBe(404);
  });
});

describe("/docs", () => {
  it("renders every operation of /v1/openapi.json with an example, plus the fixed sections", async () => {
    const openApi = (await (await fetch(`${svc.url}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${svc.url}/docs`);
    await page.locator("#endpoints-status", { hasText: "operations" }).waitFor({ timeout: 10_000 });
    let operations = 0;
    for (const [path, item] of Object.entries(openApi.paths)) {
      for (const method of Object.keys(item)) {
        const id = `op-${method}-${path.replace(/[^a-z0-9]+/gi, "-")}`;
        const section = page.locator(`section#${id}`);
        expect(await section.count(), id).toBe(1);
        expect(await section.locator("pre").first().textContent(), id).toBeTruthy();
        operations++;
      }
    }
    expect(await page.locator("#endpoints-status").textContent()).toContain(`${operations} operations`);
    for (const id of ["quick-start", "auth", "quotas", "errors", "webhooks"]) expect(await page.locator(`section#${id}`).count(), id).toBe(1);
    for (const code of ["missing_api_key", "tier_required", "daily_limit_exceeded", "rate_limit_exceeded", "warming_up"]) {
      expect(await page.locator("#errors").textContent()).toContain(code);
    }
    expect(await page.locator("#quick-start").textContent()).toMatch(/curl[\s\S]*MarketIntelClient[\s\S]*requests/);
    await page.screenshot({ path: join(ARTIFACTS, "docs-desktop.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(ARTIFACTS, "docs-phone.png") });
    expect(problems.errors).toEqual([]);
    await context.close();
  });
});
