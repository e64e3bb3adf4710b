import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync } from "node:fs";
import { open } from "node:fs/promises";
import { lookup } from "node:dns/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { webhookResolver } from "../../../src/webhook-delivery/resolver.js";
import { startDnsServer, type LocalDnsServer } from "../../support/dns-server.js";

/** libuv's default pool: every thread getaddrinfo, file and zlib work share. */
const POOL_THREADS = 4;

/**
 * Holds every libuv pool thread without using CPU: opening a FIFO for reading blocks its thread
 * until a writer opens it. `release` opens the writers from the main thread (the pool is busy).
 */
async function holdThreadPool(): Promise<{ release: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "pool-"));
  const fifos = Array.from({ length: POOL_THREADS }, (_, i) => join(dir, `fifo-${i}`));
  for (const fifo of fifos) execFileSync("mkfifo", [fifo]);
  const readers = fifos.map((fifo) => open(fifo, "r"));
  // Let each open reach its thread before anything else queues.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return {
    release: async () => {
      for (const fifo of fifos) closeSync(openSync(fifo, "w"));
      for (const handle of await Promise.all(readers)) await handle.close();
    },
  };
}

function settledFlag(p: Promise<unknown>): { settled: () => boolean; done: Promise<unknown> } {
  let settled = false;
  const done = p.then(
    (v) => {
      settled = true;
      return v;
    },
    (err: unknown) => {
      settled = true;
      return err;
    },
  );
  return { settled: () => settled, done };
}

describe("webhook name resolution while libuv's thread pool is held", () => {
  let dns: LocalDnsServer;

  beforeAll(async () => {
    dns = await startDnsServer();
    dns.records.set("hooks.test.example", ["203.0.113.7", "2001:db8::7"]);
  });

  afterAll(async () => {
    await dns.stop();
  });

  it("answers (configured servers and the system's), where getaddrinfo waits for a free thread", async () => {
    const pool = await holdThreadPool();
    // The control: getaddrinfo needs a pool thread, and none is free.
    const viaGetaddrinfo = settledFlag(lookup("localhost", { all: true }));
    try {
      expect(await webhookResolver([dns.server])("hooks.test.example")).toEqual(["203.0.113.7", "2001:db8::7"]);
      // Unconfigured, it asks the system's DNS servers: whatever they answer, it answers now.
      await settledFlag(webhookResolver(undefined)("localhost")).done;
      expect(viaGetaddrinfo.settled()).toBe(false);
    } finally {
      await pool.release();
    }
    await viaGetaddrinfo.done;
    expect(viaGetaddrinfo.settled()).toBe(true);
  });
});
