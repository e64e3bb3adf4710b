import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";
import { startFerretDb, type RunningMongo } from "./ferretdb.js";

declare module "vitest" {
  export interface ProvidedContext {
    mongoUrl: string;
    mongoIsReal: boolean;
  }
}

let mongo: RunningMongo | undefined;

const run = promisify(execFile);

/**
 * Builds or installs the test tools (Dapr, hmmlearn venv, llama-server and its model; Debian's
 * redis-server, chromium and openssl via apt-get when missing) before any suite starts, so `npm test` needs no other set-up: on a
 * fresh machine this takes minutes, which no per-suite hook timeout should have to absorb. Each
 * script is a no-op once its tool is cached; the suites call them again and get the path at once.
 */
async function prepareTools(): Promise<void> {
  const scripts = [
    "scripts/ensure-dapr.sh",
    "scripts/ensure-redis.sh",
    "scripts/ensure-hmmlearn.sh",
    "scripts/ensure-schemathesis.sh",
    "scripts/ensure-chromium.sh",
    "scripts/ensure-openssl.sh",
    "scripts/ensure-llama.sh",
  ];
  await Promise.all(
    scripts.map((script) =>
      run("bash", [script], { maxBuffer: 64 * 1024 * 1024 }).catch((err: unknown) => {
        const stderr = typeof err === "object" && err !== null && "stderr" in err ? String(err.stderr).slice(-2000) : String(err);
        throw new Error(`${script} failed: ${stderr}`);
      }),
    ),
  );
}

/**
 * Integration suites talk to MongoDB: MONGODB_URL when set (a real MongoDB), else a FerretDB
 * started here for this run.
 */
export async function setup(project: TestProject): Promise<void> {
  const tools = prepareTools();
  const external = process.env.MONGODB_URL;
  if (external) {
    await tools;
    project.provide("mongoUrl", external);
    project.provide("mongoIsReal", true);
    return;
  }
  mongo = await startFerretDb();
  await tools;
  project.provide("mongoUrl", mongo.url);
  project.provide("mongoIsReal", false);
}

export async function teardown(): Promise<void> {
  await mongo?.stop();
}
