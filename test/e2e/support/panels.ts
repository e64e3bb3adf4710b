import type { Page } from "playwright-core";

/**
 * Waits until no panel in `selector` is still loading, i.e. each shows data, a notice or a lock.
 * Polled from Node through locators: waitForFunction compiles its predicate with `new Function`,
 * which the service's Content-Security-Policy rightly forbids.
 */
export async function waitForPanelsSettled(page: Page, selector = "section.panel", timeout = 20_000): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const panels = await page.locator(selector).all();
    let settled = panels.length > 0;
    for (const p of panels) {
      if (!settled) break;
      settled = (await p.getAttribute("data-state")) !== "loading" && (await p.getAttribute("aria-busy")) === null;
    }
    if (settled) return;
    if (Date.now() > deadline) throw new Error(`Panels ${selector} still loading after ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface PanelView {
  readonly state: string;
  readonly notice: string;
}

export async function panel(page: Page, id: string): Promise<PanelView> {
  const section = page.locator(`section#${id}`);
  return {
    state: (await section.getAttribute("data-state")) ?? "",
    notice: ((await section.locator(".notice").textContent()) ?? "").trim(),
  };
}

/** What the API itself answers, so panel expectations follow the routes as they land. */
export async function apiStatus(baseUrl: string, path: string, key?: string): Promise<number> {
  const res = await fetch(`${baseUrl}${path}`, { headers: key ? { "x-api-key": key } : {} });
  await res.arrayBuffer();
  return res.status;
}
