import { afterAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startChildService, type ChildService } from "../../support/child-service.js";
import { runCli } from "../../support/cli.js";
import { freshMongoUrl, mongoIsReal } from "../../support/mongo.js";
import { waitFor } from "../../support/wait-for.js";

const running: ChildService[] = [];
afterAll(async () => {
  await Promise.all(running.map((c) => c.kill("SIGKILL")));
});

async function start(env: Record<string, string>): Promise<ChildService> {
  const child = await startChildService(env);
  running.push(child);
  return child;
}

function sqliteUrl(): string {
  return `sqlite:${join(mkdtempSync(join(tmpdir(), "proc-")), "mis.sqlite")}`;
}

async function cliKey(storeUrl: string, tier: string): Promise<string> {
  const out = await runCli(["keys", "create", "--tier", tier, "--name", "burst"], { STORE_URL: storeUrl });
  expect(out.code, out.stderr).toBe(0);
  return (JSON.parse(out.stdout) as { api_key: string }).api_key;
}

/** Fires `total` requests at the services; `inFlight` at once (all at once when equal). */
async function burst(urls: string[], key: string, total: number, inFlight: number): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      const res = await fetch(`${urls[i % urls.length]}/v1/verdict/latest`, { headers: { "x-api-key": key } });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return statuses;
}

const burstEnv = { RATE_LIMIT_FREE_PER_MINUTE: "100000", QUOTA_FREE_PER_DAY: "100" };

describe("two service processes on one store", () => {
  it("never let one Free key past its daily quota of 100 under a concurrent burst of 2,000 (one SQLite file)", async () => {
    const store = sqliteUrl();
    const key = await cliKey(store, "free");
    const [a, b] = await Promise.all([start({ STORE_URL: store, ...burstEnv }), start({ STORE_URL: store, ...burstEnv })]);
    const statuses = await burst([a.url, b.url], key, 2000, 2000);
    const admitted = statuses.filter((s) => s !== 429).length;
    expect(statuses).toHaveLength(2000);
    expect(admitted).toBe(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1900);
    // Admitted requests reached the route (503 until the verdict capability lands), none failed.
    expect(statuses.filter((s) => s >= 500 && s !== 503)).toHaveLength(0);
  });

  // Requests taking turns between the two processes, on any MongoDB (FerretDB included): each
  // process leases blocks of the quota, and the blocks' arithmetic alone must end the day at 100.
  it("keeps the quota exact across processes on MongoDB with requests taking turns (leases)", async () => {
    const store = freshMongoUrl("proc");
    const key = await cliKey(store, "free");
    const [a, b] = await Promise.all([start({ STORE_URL: store, ...burstEnv }), start({ STORE_URL: store, ...burstEnv })]);
    const statuses = await burst([a.url, b.url], key, 130, 1);
    expect(statuses.filter((s) => s !== 429)).toHaveLength(100);
    const res = await fetch(`${a.url}/v1/verdict/latest`, { headers: { "x-api-key": key } });
    expect(res.status).toBe(429);
    expect(((await res.json()) as { detail: { calls_today: number } }).detail.calls_today).toBe(100);
  });
});

// The concurrent burst on MongoDB exists only when MONGODB_URL names a real MongoDB: FerretDB,
// the stand-in used without it, does not make concurrent updates of one document atomic
// (DECISIONS 6), so there this describe is not defined at all and the turn-taking test above
// stands for it. Each process leases blocks of the quota (docs/decisions.md).
if (process.env.MONGODB_URL) {
  describe("two service processes on one real MongoDB (MONGODB_URL)", () => {
    it("never let one Free key past its daily quota of 100 under a concurrent burst of 2,000", async () => {
      expect(mongoIsReal()).toBe(true);
      const store = freshMongoUrl("proc");
      const key = await cliKey(store, "free");
      const [a, b] = await Promise.all([start({ STORE_URL: store, ...burstEnv }), start({ STORE_URL: store, ...burstEnv })]);
      const statuses = await burst([a.url, b.url], key, 2000, 2000);
      expect(statuses).toHaveLength(2000);
      expect(statuses.filter((s) => s !== 429)).toHaveLength(100);
      expect(statuses.filter((s) => s === 429)).toHaveLength(1900);
      expect(statuses.filter((s) => s >= 500 && s !== 503)).toHaveLength(0);
      const res = await fetch(`${b.url}/v1/verdict/latest`, { headers: { "x-api-key": key } });
      expect(((await res.json()) as { detail: { calls_today: number } }).detail.calls_today).toBe(100);
    });
  });
}

describe("operating the service", () => {
  it("refuses a key deactivated through the CLI within 5 seconds, although look-ups are cached", async () => {
    const store = sqliteUrl();
    const key = await cliKey(store, "basic");
    const svc = await start({ STORE_URL: store });
    const call = () => fetch(`${svc.url}/v1/signals/latest`, { headers: { "x-api-key": key } });
    expect((await call()).status).not.toBe(401); // now cached as active
    const out = await runCli(["keys", "deactivate", key], { STORE_URL: store });
    expect(out.code, out.stderr).toBe(0);
    const deactivatedAt = Date.now();
    await waitFor(async () => (await call()).status === 401, 5_000, "the deactivated key to be refused");
    expect(Date.now() - deactivatedAt).toBeLessThan(5_000);
    const body = (await (await call()).json()) as { detail: { error: string } };
    expect(body.detail.error).toBe("key_inactive");
    const list = await runCli(["keys", "list"], { STORE_URL: store });
    expect(list.stdout).not.toContain(key);
    expect(list.stdout).toContain('"active":false');
  });

  it("exits 0 on SIGTERM, and the store stays usable", async () => {
    const store = sqliteUrl();
    const svc = await start({ STORE_URL: store });
    expect((await fetch(`${svc.url}/v1/health`)).status).toBe(200);
    const code = await svc.kill("SIGTERM");
    expect(code).toBe(0);
    const out = await runCli(["keys", "list"], { STORE_URL: store });
    expect(out.code).toBe(0);
  });

  it("refuses to start on a bad configuration value with exit 78, naming the variable and the rule", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      env: { ...process.env, STORE_URL: "sqlite::memory:", PORT: "0", QUOTA_FREE_PER_DAY: "-5", ACTOR_RUNTIME: "local" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(78);
    expect(out).toContain("QUOTA_FREE_PER_DAY: must be > 0");
  });
});
