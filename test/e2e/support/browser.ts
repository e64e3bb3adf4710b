import { chromium, type Browser, type ConsoleMessage, type Page } from "playwright-core";
import { execFileSync } from "node:child_process";

/**
 * Debian's chromium (DECISIONS 6), installed on first use by scripts/ensure-chromium.sh (the
 * global set-up has already run it; here it only prints the path).
 */
function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return fromEnv;
  return execFileSync("bash", ["scripts/ensure-chromium.sh"], { encoding: "utf8" }).trim();
}

export async function launchBrowser(): Promise<Browser> {
  // --no-sandbox: CI runs as root in a container, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
}

export interface PageProblems {
  readonly errors: string[];
}

/**
 * Collects console errors and uncaught exceptions. Chromium also logs every non-2xx fetch as
 * "Failed to load resource"; those are the API's documented answers (503 not_ready, 403
 * tier_required), handled by the page, so they are not counted as page errors.
 */
export function watchProblems(page: Page): PageProblems {
  const errors: string[] = [];
  page.on("console", (msg: ConsoleMessage) => {
    if (msg.type() !== "error") return;
    const url = msg.location().url;
    if (msg.text().startsWith("Failed to load resource") && /\/v1\//.test(url)) return;
    errors.push(`console: ${msg.text()} (${url})`);
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  return { errors };
}
