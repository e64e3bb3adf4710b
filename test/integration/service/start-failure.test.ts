import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/** Runs the service's entry point with `env` added, until it exits on its own. */
function runMain(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ["--import", "tsx", resolve("src/main.ts")], {
      env: { PATH: process.env.PATH ?? "", PORT: "0", HOST: "127.0.0.1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (code) => done({ code, stdout, stderr }));
  });
}

describe("a start that cannot open what it needs", () => {
  it("ends with one fatal line naming the missing market data, not a stack trace", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mis-start-"));
    const run = await runMain({ STORE_URL: `sqlite:${join(dir, "mis.sqlite")}`, MARKET_DATA_DIR: join(dir, "no-market-data") });
    expect(run.code).toBe(1);
    const fatal = run.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.level === 60);
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toMatchObject({ msg: "cannot start", err: { code: "ENOENT" }, store: "sqlite" });
    expect(String(fatal[0]?.path)).toContain("no-market-data");
    expect(run.stderr).not.toMatch(/^\s+at /m);
  }, 60_000);
});
