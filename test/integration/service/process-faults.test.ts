import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

/** A credential inside an error message, as a fetch error quotes the URL it was given. */
const SECRET_URL = "https://owner:hunter2-secret@hooks.example.org/notify";

const MODULES = {
  logger: pathToFileURL(resolve("src/logging/logger.ts")).href,
  faults: pathToFileURL(resolve("src/logging/process-faults.ts")).href,
};

/** Runs a process that installs the service's fault handler (as src/main.ts does), then faults. */
function runFaulting(fault: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), "mis-fault-"));
  const script = join(dir, "fault.mts");
  writeFileSync(
    script,
    [
      `import { createLogger } from ${JSON.stringify(MODULES.logger)};`,
      `import { exitOnProcessFault } from ${JSON.stringify(MODULES.faults)};`,
      `exitOnProcessFault(createLogger("info"), (code) => process.exit(code));`,
      `const err = Object.assign(new Error(${JSON.stringify(`request to ${SECRET_URL} failed`)}), { code: "ECONNREFUSED" });`,
      fault,
      // Without a handler the process would also end; this keeps it alive long enough to see.
      `setTimeout(() => {}, 5_000);`,
    ].join("\n"),
  );
  return new Promise((done) => {
    const child = spawn(process.execPath, ["--import", "tsx", script], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("exit", (code) => done({ code, stdout, stderr }));
  });
}

function fatalLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.level === 60);
}

describe("a fault no code path caught", () => {
  it.each([
    ["unhandled_rejection", "void Promise.reject(err);"],
    ["uncaught_exception", "setTimeout(() => { throw err; }, 10);"],
  ])("%s ends the process with exit 1 and one fatal log line that names its kind and code, not its message", async (kind, fault) => {
    const run = await runFaulting(fault);
    expect(run.code).toBe(1);
    const [line, ...more] = fatalLines(run.stdout);
    expect(more).toEqual([]);
    expect(line).toMatchObject({ fault: kind, error: { name: "Error", code: "ECONNREFUSED" }, msg: "process fault; exiting", service: "market-intel" });
    // The frames say where: the faulting script is among them.
    expect((line?.frames as string[]).some((frame) => frame.includes("fault.mts"))).toBe(true);
    // Node's default handler prints the message (and with it the credential) to stderr.
    expect(run.stdout + run.stderr).not.toContain("hunter2");
  });
});
