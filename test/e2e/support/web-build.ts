import { execFileSync } from "node:child_process";
import { join } from "node:path";

export const REPO_ROOT = join(import.meta.dirname, "..", "..", "..");
export const WEB_DIR = join(REPO_ROOT, "dist", "web");

/** Builds dist/web exactly as `npm start` does; safe to run from parallel workers (atomic writes). */
export function buildWeb(): void {
  execFileSync(process.execPath, [join(REPO_ROOT, "scripts", "build-web.mjs")], { cwd: REPO_ROOT, stdio: "pipe" });
}

export const ARTIFACTS = join(REPO_ROOT, "test-artifacts");
