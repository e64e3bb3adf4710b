import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../support/free-port.js";

const ROOT = resolve(import.meta.dirname, "..", "..", "..");

interface Copy {
  readonly from: string | null;
  readonly sources: readonly string[];
  readonly dest: string;
}

/** The Dockerfile's stages, each with its COPY instructions (no Docker daemon runs here). */
function dockerfileStages(text: string): Copy[][] {
  const stages: Copy[][] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (/^FROM\s/i.test(line)) stages.push([]);
    const copy = /^COPY\s+(.*)$/i.exec(line);
    if (copy === null) continue;
    const words = (copy[1] ?? "").split(/\s+/);
    const from = words[0]?.startsWith("--from=") ? (words.shift()?.slice("--from=".length) ?? null) : null;
    const dest = words.pop() ?? "";
    stages[stages.length - 1]?.push({ from, sources: words, dest });
  }
  return stages;
}

/** Where a COPY puts `source` under WORKDIR: into `dest` when that is a directory ("./", "./scripts/"), else at `dest`. */
function target(source: string, dest: string, many: boolean): string {
  return normalize(dest.endsWith("/") || many ? join(dest, source.split("/").pop() ?? source) : dest);
}

const stages = dockerfileStages(readFileSync(join(ROOT, "Dockerfile"), "utf8"));
const work = mkdtempSync(join(tmpdir(), "mis-docker-"));
let server: ChildProcess | null = null;

afterAll(() => {
  server?.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

/**
 * What `docker build` would do with this repository's Dockerfile, without a Docker daemon: the
 * build stage gets only what its COPY lines name (its `npm ci` stands in as a link to this
 * checkout's node_modules) and runs the image's build; the runtime stage gets only what its COPY
 * lines take, and must start and answer. A file the image forgets (the SDK the dashboard imports
 * was) fails here instead of at a customer's `docker compose up`.
 */
describe("the Dockerfile's build context", () => {
  const build = join(work, "build");
  const runtime = join(work, "runtime");

  it("has two stages, and the build stage builds the service and the dashboard from what it copies", () => {
    expect(stages).toHaveLength(2);
    for (const copy of stages[0] ?? []) {
      for (const source of copy.sources) cpSync(join(ROOT, source), join(build, target(source, copy.dest, copy.sources.length > 1)), { recursive: true });
    }
    symlinkSync(join(ROOT, "node_modules"), join(build, "node_modules"), "dir");
    const runs = readFileSync(join(ROOT, "Dockerfile"), "utf8").match(/^RUN npm run build && npm run build:web/m);
    expect(runs).not.toBeNull();
    for (const script of ["build", "build:web"]) execFileSync("npm", ["run", "--silent", script], { cwd: build, stdio: "pipe", timeout: 240_000 });
    expect(readFileSync(join(build, "dist", "web", "index.html"), "utf8")).toContain("<html");
  }, 300_000);

  it("the runtime stage, holding only what it copies, starts and answers", async () => {
    for (const copy of stages[1] ?? []) {
      for (const source of copy.sources) {
        const dest = join(runtime, target(source, copy.dest, copy.sources.length > 1));
        mkdirSync(dirname(dest), { recursive: true });
        // The pruned node_modules stands in as a link too (pruning would touch this checkout's).
        if (copy.from !== null && source.endsWith("node_modules")) symlinkSync(join(ROOT, "node_modules"), dest, "dir");
        else cpSync(join(copy.from === null ? ROOT : build, source.replace(/^\/app\//, "")), dest, { recursive: true });
      }
    }
    const port = await freePort();
    const child = spawn(process.execPath, [join(runtime, "dist", "src", "main.js")], {
      cwd: runtime,
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", PORT: String(port), LOG_LEVEL: "warn", METRICS_PORT: String(await freePort()) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server = child;
    let output = "";
    child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
    let status = 0;
    for (let i = 0; i < 300 && status !== 200 && child.exitCode === null; i++) {
      status = await fetch(`http://127.0.0.1:${port}/v1/health/live`).then(
        (r) => r.status,
        () => 0,
      );
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect({ status, exit: child.exitCode }, output.slice(-2000)).toEqual({ status: 200, exit: null });
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
  }, 120_000);
});
