import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createKey, startService, type RunningService } from "../support/service.js";
import { closedTrade } from "../support/ghost-trades.js";
import { WeightsActor } from "../../src/actors/weights-actor.js";
import { launchBrowser, watchProblems } from "./support/browser.js";
import { ARTIFACTS, buildWeb } from "./support/web-build.js";
import { apiStatus, panel, waitForPanelsSettled } from "./support/panels.js";
import { ghostPerformanceSchema } from "../../src/http/schemas/ghost-performance.js";
import { ghostStatsFigures } from "../../src/domain/ghost/ghost-stats.js";
import { keyPrefix } from "../../src/domain/access/api-key.js";

const H = 3_600_000;

const PUBLIC_PANELS: readonly (readonly [string, string])[] = [
  ["ghost-stats", "/v1/ghost/stats"],
  ["track-btc", "/v1/btc/track-record"],
  ["track-eth", "/v1/eth/track-record"],
  ["track-sol", "/v1/sol/track-record"],
  ["track-tao", "/v1/tao/track-record"],
  ["tao-gates", "/v1/tao/status"],
  ["ghost-performance", "/v1/ghost/performance?asset=BTC"],
];
const FREE_PANELS: readonly (readonly [string, string])[] = [
  ["verdict", "/v1/verdict/latest"],
  ["regime", "/v1/regime/current"],
  ["price-chart", "/v1/market/candles?asset=BTC&interval=1h&limit=500"],
  ["regime-stats", "/v1/regime/stats"],
  ["agent-performance", "/v1/agents/performance"],
];
const BASIC_PANELS: readonly (readonly [string, string])[] = [["evidence", "/v1/evaluation/verdicts?asset=BTC"]];
const PRO_PANELS: readonly (readonly [string, string])[] = [
  ["signals", "/v1/signals/latest"],
  ["macro-calendar", "/v1/signals/latest"],
  ["macro-correlation", "/v1/macro/correlation"],
  ["signal-weights", "/v1/signals/weights?regime=ALL"],
  ["btc-council", "/v1/council/latest"],
  ["sol-council", "/v1/sol/council"],
  ["tao-council", "/v1/tao/council"],
];
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const PAGE_WEIGHT_BUDGET = 300 * 1024;

let svc: RunningService;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  buildWeb();
  mkdirSync(ARTIFACTS, { recursive: true });
  // Two weeks of replayed market history: every engine has produced data (verdicts, regimes,
  // closed Ghost trades, graded weights) before the first page load, as on a live service.
  svc = await startService({ REPLAY_WARMUP_DAYS: "14" });
  await seedPaperTrades(svc);
  browser = await launchBrowser();
});

/**
 * With calibrated confidence the Ghost Traders stand aside over the bundled history (issue 16),
 * so the warm-up closes no trade. The panels that draw trades and graded weights are exercised on
 * a few closed BTC paper trades written to the ledger after the warm-up (inside the chart's
 * 500-bar window, at real prices), graded by the real WeightsActor.
 */
async function seedPaperTrades(running: RunningService): Promise<void> {
  const { store, marketClock, feed } = running.service.deps;
  const launch = Math.max(...(await store.ghostLedger.sprints()).map((m) => m.at));
  const now = marketClock.now();
  const trades = Array.from({ length: 8 }, (_, i) => {
    const entry = Math.max(launch, now - 240 * H) + i * 24 * H;
    const price = feed.assetFeatures("BTC", entry).price.value ?? 80_000;
    const t = closedTrade("BTC", entry, i % 3 === 0 ? -24 : 36);
    const exitPrice = price + t.pnlUsd / t.size;
    return { ...t, entryPrice: price, exitPrice, fills: t.fills.map((f) => ({ ...f, price: exitPrice })) };
  });
  await store.ghostLedger.saveClosed(trades.filter((t) => t.exitTime < now));
  await running.service.actors.host.proxy(WeightsActor, WeightsActor.ID).update();
}

afterAll(async () => {
  await browser?.close();
  await svc?.stop();
});

async function openDashboard(viewport = DESKTOP): Promise<{ page: Page; problems: ReturnType<typeof watchProblems> }> {
  context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${svc.url}/`);
  return { page, problems };
}

/** Every engine has landed and warmed up: each endpoint answers 200 and its panel shows data. */
async function expectPanelShowsData(page: Page, id: string, path: string, key?: string): Promise<void> {
  expect(await apiStatus(svc.url, path, key), `${path} answers 200`).toBe(200);
  expect(await panel(page, id), id).toEqual({ state: "ok", notice: "" });
}

const ALL_PANEL_IDS = [...PUBLIC_PANELS, ...FREE_PANELS, ...BASIC_PANELS, ...PRO_PANELS].map(([id]) => id).filter((id, i, ids) => ids.indexOf(id) === i);

/** Panels whose table needs sideways scrolling to be read, with how many pixels are hidden. */
async function clippedTables(page: Page): Promise<string[]> {
  // Page-side code as a string: the test project compiles without DOM types.
  return page.evaluate<string[]>(
    `Array.from(document.querySelectorAll("section.panel .table-wrap"))
      .filter((w) => w.scrollWidth - w.clientWidth > 1)
      .map((w) => w.closest("section").id + ": " + (w.scrollWidth - w.clientWidth) + " px hidden")`,
  );
}

/**
 * Column headers aligned otherwise than the cells under them: a right-aligned column of figures
 * under a left-aligned heading reads as belonging to the column beside it.
 */
async function misalignedHeaders(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(
    `Array.from(document.querySelectorAll("section.panel table")).flatMap((t) => {
      const row = t.querySelector("tbody tr");
      // On a phone each row is a card with its own labels: no heading stands over a column.
      if (!row || getComputedStyle(row).display !== "table-row") return [];
      return Array.from(t.querySelectorAll("thead th")).flatMap((th, i) => {
        const cell = row.children[i];
        const want = cell ? getComputedStyle(cell).textAlign : null;
        const got = getComputedStyle(th).textAlign;
        return want === null || want === got ? [] : [t.closest("section").id + " '" + th.textContent + "': " + got + " over " + want];
      });
    })`,
  );
}

async function rowCount(page: Page, selector: string): Promise<number> {
  return page.locator(selector).count();
}

describe("dashboard", () => {
  it("loads its public panels without a key, within the page-weight budget and without console errors", async () => {
    context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const problems = watchProblems(page);
    const transfers: Promise<{ url: string; bytes: number; encoding: string | null }>[] = [];
    page.on("requestfinished", (req) => {
      transfers.push(
        Promise.all([req.sizes(), req.response()]).then(([sizes, res]) => ({
          url: req.url(),
          bytes: Math.max(0, sizes.responseBodySize) + Math.max(0, sizes.responseHeadersSize),
          encoding: res?.headers()["content-encoding"] ?? null,
        })),
      );
    });
    await page.goto(`${svc.url}/`);
    await waitForPanelsSettled(page);
    for (const [id, path] of PUBLIC_PANELS) await expectPanelShowsData(page, id, path);
    for (const [id] of [...FREE_PANELS, ...BASIC_PANELS, ...PRO_PANELS]) {
      expect(await panel(page, id), id).toMatchObject({ state: "locked", notice: expect.stringMatching(/^Needs a (Free|Basic|Pro) key/) });
    }
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-desktop.png"), fullPage: true });

    const loaded = await Promise.all(transfers);
    const total = loaded.reduce((sum, t) => sum + t.bytes, 0);
    const assets = loaded.filter((t) => /\/assets\//.test(t.url));
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const a of assets) expect(a.encoding, a.url).toMatch(/^(br|gzip)$/);
    console.info(`dashboard first load: ${loaded.length} requests, ${(total / 1024).toFixed(1)} KiB transferred`);
    expect(total).toBeLessThanOrEqual(PAGE_WEIGHT_BUDGET);
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it("shows a trader that stands aside the no-skill baseline of its exits, not n/a, and no rate over no trades", async () => {
    const performance = ghostPerformanceSchema.parse(await (await fetch(`${svc.url}/v1/ghost/performance?asset=ETH`)).json());
    const random = performance.benchmarks.randomEntry;
    // ETH trades nothing over the warm-up (issue 16: no calibrated edge), so no draw can match its count.
    expect(performance.trades).toBe(0);
    expect(random?.matched).toBeNull();
    const { page, problems } = await openDashboard();
    await waitForPanelsSettled(page);
    await page.selectOption("#performance-asset", "ETH");
    const text = () => page.locator("#ghost-performance").innerText();
    await expect.poll(text, { timeout: 15_000 }).toMatch(/Random PF\s+\d+\.\d+ over every entry/);
    // In % of position cost, the figure the trader's own expectancy is judged against.
    const everyEntryPct = random!.everyEntry.expectancyPct.toLocaleString("en-US", { maximumFractionDigits: 2 });
    expect(await text()).toMatch(new RegExp(`Random expectancy\\s+${everyEntryPct.replace(/[.]/g, "\\.")} % a trade over every entry`));
    expect(await text()).toContain(random?.note ?? "a note on what random entry is matched to");
    // With no trade closed, a rate or an average is not "0.0%" or "$0.00 / $0.00": there is
    // nothing to measure yet. And a date-only `since` is not given an invented 00:00.
    const eth = await page.locator("#track-eth").innerText();
    for (const row of ["Win rate", "Best / worst", "Average hold"]) expect(eth).toMatch(new RegExp(`${row}\\s+—`));
    expect(await text()).toMatch(/Expectancy\s+—/);
    expect(await page.locator("#ghost-stats").innerText()).toMatch(/Since\s+\d{4}-\d{2}-\d{2}(?! \d)/);
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it("fits a phone screen", async () => {
    const { page, problems } = await openDashboard(PHONE);
    await waitForPanelsSettled(page);
    // Page-side code as strings: the test project compiles without DOM types.
    const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
    expect(overflow).toBeLessThanOrEqual(1);
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-phone.png"), fullPage: true });
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it("generates a free key in the page, keeps it in memory only and unlocks the Free panels", async () => {
    const { page, problems } = await openDashboard();
    await page.getByText("No key? Generate a free one").click();
    await page.getByLabel("Name").fill("E2E visitor");
    await page.getByLabel("E-mail").fill("visitor@example.com");
    await page.getByRole("button", { name: "Generate free key" }).click();
    const issued = page.locator("#issued-key-value");
    await issued.waitFor({ timeout: 10_000 });
    const key = (await issued.textContent()) ?? "";
    expect(key).toMatch(/^svc_free_[A-Za-z0-9]{20}$/);
    await expect.poll(async () => (await panel(page, "verdict")).state).not.toBe("locked");
    await waitForPanelsSettled(page);
    for (const [id, path] of FREE_PANELS) await expectPanelShowsData(page, id, path, key);
    expect(await page.locator("#verdict .headline .pill").textContent()).toMatch(/^(STRONG BUY|BUY|ACCUMULATE|HOLD|REDUCE|SELL|STRONG SELL)$/);
    expect(await page.locator("#regime .headline .pill").textContent()).toMatch(/^[A-Z ]+$/);
    expect(await page.locator("#price-chart canvas").count()).toBeGreaterThan(0);
    // The seeded closed Ghost trades are inside the 500-bar window: the chart must mark them.
    const notes = (await page.locator("#price-chart [data-testid=chart-notes]").textContent()) ?? "";
    expect(Number(/(\d+) trade markers in view/.exec(notes)?.[1] ?? 0), notes).toBeGreaterThan(0);
    expect(await page.locator("#regime-stats dl.facts").count()).toBe(1);
    expect(await page.locator("#agent-performance").textContent()).toMatch(/Graded against \d+ closed BTC Ghost trades? opened by a council verdict/);
    expect(await panel(page, "signals")).toMatchObject({ state: "locked", notice: expect.stringContaining("your key is Free") });
    expect(await panel(page, "btc-council")).toMatchObject({ state: "locked", notice: expect.stringContaining("Needs the Pro tier") });
    expect(await panel(page, "macro-correlation")).toMatchObject({ state: "locked", notice: expect.stringContaining("your key is Free") });
    expect(await panel(page, "evidence")).toMatchObject({ state: "locked", notice: expect.stringContaining("your key is Free") });
    expect(await page.locator("#verdict .headline .basis").textContent()).toMatch(/^\((calibrated: (isotonic|base rate), \d+ h|prior: under a week of outcomes(, \d+ h)?|uncalibrated)\)$/);
    expect(await panel(page, "signal-weights")).toMatchObject({ state: "locked", notice: expect.stringContaining("Needs the Pro tier") });
    const stored = await page.evaluate<unknown>("({ local: localStorage.length, session: sessionStorage.length, cookie: document.cookie, url: location.href })");
    expect(stored).toEqual({ local: 0, session: 0, cookie: "", url: `${svc.url}/` });
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-free-key-desktop.png"), fullPage: true });
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it("says at once when a pasted key is not accepted", async () => {
    const { page, problems } = await openDashboard();
    await page.getByLabel("Paste a key").fill("svc_pro_AAAAAAAAAAAAAAAAAAAA");
    await page.getByRole("button", { name: "Use key" }).click();
    await expect.poll(() => page.locator("#key-status").textContent(), { timeout: 10_000 }).toBe("The API key is not valid. Only the public panels will load: paste another key or generate a free one.");
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it("reveals the Basic and Pro panels when a Pro key is pasted", async () => {
    const proKey = await createKey(svc, "pro");
    const { page, problems } = await openDashboard();
    await page.getByLabel("Paste a key").fill(proKey);
    await page.getByRole("button", { name: "Use key" }).click();
    await expect.poll(async () => (await panel(page, "btc-council")).state).not.toBe("locked");
    await waitForPanelsSettled(page);
    expect(await page.getByLabel("Paste a key").inputValue()).toBe("");
    // The key bar asks the service which key this is and what is left of today's quota.
    const prefix = keyPrefix(proKey);
    await expect.poll(() => page.locator("#key-status").textContent(), { timeout: 10_000 }).toMatch(new RegExp(`^Using a Pro key \\(${prefix}…\\): [\\d,]+ of 10,000 calls left today`));
    for (const [id, path] of [...FREE_PANELS, ...BASIC_PANELS, ...PRO_PANELS]) await expectPanelShowsData(page, id, path, proKey);
    // Evidence: the reliability quintiles, rank IC per horizon and the regime block, as served.
    const evaluation = (await (await fetch(`${svc.url}/v1/evaluation/verdicts?asset=BTC`, { headers: { "x-api-key": proKey } })).json()) as {
      spans: { span: string; reliability: { quintiles: unknown[] }; rank_ic: unknown[] }[];
    };
    const shown = evaluation.spans.find((x) => x.span === "from_2023") ?? evaluation.spans.at(-1);
    expect(shown, "the evaluation has a span").toBeDefined();
    expect(await rowCount(page, "#evidence table:has(caption:text('Reliability')) tbody tr")).toBe(shown?.reliability.quintiles.length);
    expect(await rowCount(page, "#evidence table:has(caption:text('Rank IC')) tbody tr")).toBe(shown?.rank_ic.length);
    expect(await page.locator("#evidence").textContent()).toMatch(/Brier score.*for the base rate/);
    expect(await rowCount(page, "#evidence table:has(caption:text('by regime')) tbody tr")).toBeGreaterThan(0);
    await page.locator("#evidence-asset").selectOption("ETH");
    await expect.poll(() => page.locator("#evidence dl.facts dd").nth(4).textContent(), { timeout: 10_000 }).toMatch(/outcomes, fitted/);
    expect(await apiStatus(svc.url, "/v1/evaluation/verdicts?asset=ETH", proKey)).toBe(200);
    expect(await panel(page, "evidence")).toEqual({ state: "ok", notice: "" });
    // Council panels: each headline says how its confidence was obtained, an abstaining agent
    // shows no probability, and an agent's own figure reads as the 0–1 weight it is.
    for (const id of ["btc-council", "sol-council", "tao-council"]) {
      const text = await page.locator(`#${id}`).innerText();
      expect(text, id).toMatch(/\d+\.\d% \((calibrated: (isotonic|base rate)|prior|uncalibrated)[^)]*\)/);
      expect(text, id).toMatch(/agent's own figure [01]\.\d\d/);
      expect(text, id).not.toMatch(/agent's own( figure)? \d+\.\d%/);
      expect(text, id).not.toMatch(/abstained[^\n]*\d+\.\d%/);
    }
    expect(await rowCount(page, "#signals tbody tr")).toBe(27);
    // The default replay runs past the bundled calendar's last payrolls release: the panel says CLEAR may hide one.
    expect(await page.locator("#macro-calendar").textContent()).toContain("lists every CPI and payrolls release only up to 2026-02-11");
    // Sparklines arrive after the table, from the Pro-only signal history.
    await expect.poll(() => page.locator("#signals td.trend svg").count(), { timeout: 10_000 }).toBeGreaterThan(0);
    // Macro correlation: the five series, both 0..100 scores, and an alert list or "No macro alerts".
    expect(await rowCount(page, "#macro-correlation tbody tr")).toBe(5);
    expect(await page.locator("#macro-correlation [role=meter]").count()).toBe(2);
    expect(await page.locator("#macro-correlation").textContent()).toMatch(/Macro alerts|No macro alerts|RISK OFF|FED HAWKISH/);
    // Signal weights: one row per graded (signal, regime); a regime filter refetches only this panel.
    const weights = (await (await fetch(`${svc.url}/v1/signals/weights`, { headers: { "x-api-key": proKey } })).json()) as { weights: { regime: string }[] };
    expect(weights.weights.length, "the WeightsActor graded the seeded trades' signals").toBeGreaterThan(0);
    expect(await rowCount(page, "#signal-weights tbody tr")).toBeGreaterThan(0);
    const regime = weights.weights[0]?.regime ?? "";
    await page.locator("#weights-regime").selectOption(regime);
    await expect.poll(() => page.locator("#signal-weights dl.facts dd").first().textContent(), { timeout: 10_000 }).toBe(regime.replace(/_/g, " "));
    // Asked after the panel: the service's 300 s cache gives both the same answer.
    const filtered = (await (await fetch(`${svc.url}/v1/signals/weights?regime=${regime}`, { headers: { "x-api-key": proKey } })).json()) as { weights: unknown[] };
    expect(filtered.weights.length).toBeGreaterThan(0);
    expect(await rowCount(page, "#signal-weights tbody tr")).toBe(filtered.weights.length);
    expect(await panel(page, "signal-weights")).toEqual({ state: "ok", notice: "" });
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-pro-desktop.png"), fullPage: true });
    expect(await page.locator("#verdict td.reasoning").count(), "the verdict shows its agents' reasoning").toBeGreaterThan(0);
    // Every panel readable at both widths: no table runs past its card's edge (the agents'
    // Reasoning column once did, in the verdict panel), and a screenshot of each panel to look at.
    for (const [width, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
      await page.setViewportSize(viewport);
      expect(await clippedTables(page), `tables wider than their panel at ${viewport.width} px`).toEqual([]);
      expect(await misalignedHeaders(page), "column headings aligned as their cells").toEqual([]);
      expect(await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth")).toBeLessThanOrEqual(1);
      for (const id of ALL_PANEL_IDS) await page.locator(`section#${id}`).screenshot({ path: join(ARTIFACTS, `panel-${id}-${width}.png`) });
    }
    await page.screenshot({ path: join(ARTIFACTS, "dashboard-pro-phone.png"), fullPage: true });
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it.each([
    ["basic", 1_000, [...FREE_PANELS, ...BASIC_PANELS].length],
    ["pro", 10_000, [...FREE_PANELS, ...BASIC_PANELS, ...PRO_PANELS].length],
  ] as const)("spends under half of a %s key's daily quota of %i in 8 hours of an open tab", async (tier, quota, panels) => {
    const key = await createKey(svc, tier);
    context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    // The page's own timers on a clock the test moves: an hour of refreshes in seconds.
    await page.clock.install();
    // Public routes (a track record the price chart marks trades from) count against no quota.
    const publicPaths = new Set(PUBLIC_PANELS.map(([, path]) => path.split("?")[0]));
    const counted = (r: { url(): string; headers(): Record<string, string> }) => r.headers()["x-api-key"] === key && !publicPaths.has(new URL(r.url()).pathname);
    let sent = 0;
    let answered = 0;
    page.on("request", (r) => void (counted(r) && sent++));
    page.on("requestfinished", (r) => void (counted(r) && answered++));
    page.on("requestfailed", (r) => void (counted(r) && answered++));
    await page.goto(`${svc.url}/`);
    await page.getByLabel("Paste a key").fill(key);
    await page.getByRole("button", { name: "Use key" }).click();
    await expect.poll(async () => (await panel(page, "evidence")).state).not.toBe("locked");
    await waitForPanelsSettled(page);
    const before = sent;
    for (let minute = 0; minute < 60; minute++) {
      await page.clock.runFor(60_000);
      // Each refresh answered and rendered (its next one scheduled) before the clock moves on.
      await expect.poll(() => answered === sent, { timeout: 10_000 }).toBe(true);
      await waitForPanelsSettled(page);
    }
    const perHour = sent - before;
    // Every keyed panel refreshed within the hour, and 8 such hours stay under half the quota.
    expect(perHour).toBeGreaterThanOrEqual(panels);
    expect(perHour * 8).toBeLessThan(quota / 2);
    await context.close();
  });

  it("shows no win rate while the only counted trade is still open", async () => {
    // What the service answers when one trader holds a position and none has closed: the
    // figures from the service's own function, in the stats body the service serves now.
    const { exitTime: _x, exitPrice: _p, exitReason: _r, fills: _f, pnlUsd: _u, pnlPct: _c, tp1PnlUsd: _t, result: _s, valid: _v, ...entry } = closedTrade("BTC", Date.UTC(2026, 2, 1), 10);
    const open = { ...entry, remaining: entry.size, stopLoss: entry.entryPrice * 0.97, tp1Hit: false, hwm: null, fills: [] };
    const figures = ghostStatsFigures([], [open], 0);
    expect(figures).toEqual({ validated_trades: 1, total_pnl: 0, win_rate: 0 });
    const served = (await (await fetch(`${svc.url}/v1/ghost/stats`)).json()) as Record<string, unknown>;
    context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.route("**/v1/ghost/stats", (route) => route.fulfill({ json: { ...served, ...figures } }));
    await page.goto(`${svc.url}/`);
    await waitForPanelsSettled(page);
    const text = await page.locator("#ghost-stats").innerText();
    expect(text).toMatch(/Validated trades\s+1/);
    expect(text).toMatch(/Win rate\s+— \(no closed trade\)/);
    await context.close();
  });

  it("shows a clear notice for an endpoint answering 503 and keeps the rest of the page working", async () => {
    context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.route("**/v1/ghost/stats", (route) =>
      route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ detail: { error: "warming_up", message: "Ghost Traders are warming up." } }) }),
    );
    await page.goto(`${svc.url}/`);
    await waitForPanelsSettled(page);
    expect(await panel(page, "ghost-stats")).toEqual({ state: "notice", notice: "Not available yet: Ghost Traders are warming up." });
    await expectPanelShowsData(page, "tao-gates", "/v1/tao/status");
    expect(await page.locator("#ghost-stats .notice").getAttribute("role")).toBe("status");
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it("does not let one slow endpoint hold up the other panels", async () => {
    context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    // Never answered: the panel's own 10 s timeout must turn it into a notice.
    await page.route("**/v1/tao/status", () => undefined);
    await page.goto(`${svc.url}/`);
    await waitForPanelsSettled(page, "section.panel:not(#tao-gates)", 8_000);
    expect((await panel(page, "tao-gates")).state).toBe("loading");
    await waitForPanelsSettled(page, "section#tao-gates", 15_000);
    expect(await panel(page, "tao-gates")).toMatchObject({ state: "notice", notice: expect.stringContaining("took too long") });
    await context.close();
  });
});
