import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MongoClient } from "mongodb";
import { freePort } from "./free-port.js";
import { waitFor } from "./wait-for.js";

export interface RunningMongo {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Builds (once, cached) and starts FerretDB 1.24.2 over SQLite on a free loopback port.
 * Fails loudly with what to install when the Go toolchain is missing: never skips.
 */
export async function startFerretDb(): Promise<RunningMongo> {
  const built = spawnSync("bash", ["scripts/ensure-ferretdb.sh"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (built.status !== 0) {
    throw new Error(`FerretDB could not be built (needs the Go toolchain: apt-get install golang): ${built.stderr.slice(-2000)}`);
  }
  const bin = built.stdout.trim().split("\n").pop() ?? "";
  const dir = mkdtempSync(join(tmpdir(), "ferretdb-"));
  const port = await freePort();
  const debugPort = await freePort();
  const child: ChildProcess = spawn(
    bin,
    [
      "--handler=sqlite",
      `--sqlite-url=file:${dir}/`,
      `--listen-addr=127.0.0.1:${port}`,
      `--debug-addr=127.0.0.1:${debugPort}`,
      "--telemetry=disable",
      `--state-dir=${dir}`,
      "--log-level=error",
    ],
    { stdio: "ignore" },
  );
  const url = `mongodb://127.0.0.1:${port}/`;
  await waitFor(
    async () => {
      const c = new MongoClient(url, { serverSelectionTimeoutMS: 500 });
      try {
        await c.connect();
        await c.db("admin").command({ ping: 1 });
        return true;
      } finally {
        await c.close();
      }
    },
    30_000,
    "FerretDB to accept connections",
  );
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => setTimeout(r, 100));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
