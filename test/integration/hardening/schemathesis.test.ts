import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChildService, type ChildService } from "../../support/child-service.js";
import { runCli } from "../../support/cli.js";
import { freshStoreUrl } from "../../support/service.js";

/**
 * Issue 19, "done means": Schemathesis (pinned by scripts/ensure-schemathesis.sh) fuzzes the
 * service as an operator runs it, over the keyless and the keyed (Pro) surface, with every
 * check on and a bounded number of examples per operation, and finds nothing. A failure fails
 * this test with Schemathesis' own report (the failing case, a curl reproduction, the seed).
 */

const run = promisify(execFile);
const EXAMPLES = "10";
const SEED = "1";

let schemathesis: string;
let svc: ChildService;
let proKey: string;

beforeAll(async () => {
  schemathesis = (await run("bash", ["scripts/ensure-schemathesis.sh"], { maxBuffer: 16 * 1024 * 1024 })).stdout.trim();
  const storeUrl = freshStoreUrl("sqlite", "schemathesis");
  svc = await startChildService({
    STORE_URL: storeUrl,
    // Webhook hosts resolve through a server that refuses every query: names are 422
    // url_host_not_public (allowed by schemathesis.toml), and nothing is ever sent anywhere.
    WEBHOOK_DNS_SERVERS: "127.0.0.1:1",
    RATE_LIMIT_PRO_PER_MINUTE: "1000000",
    QUOTA_PRO_PER_DAY: "1000000",
  });
  const created = await runCli(["keys", "create", "--tier", "pro", "--name", "schemathesis"], { STORE_URL: storeUrl });
  expect(created.code).toBe(0);
  proKey = (JSON.parse(created.stdout) as { api_key: string }).api_key;
}, 600_000);

afterAll(async () => {
  await svc.kill();
});

/**
 * Runs Schemathesis; once more when the only problem was the known crash inside the tool itself
 * (CPython's `ast` raising "AST constructor recursion depth mismatch" while Hypothesis describes
 * a lambda; python/cpython#106905, HypothesisWorks/hypothesis#4364). Its cause, two threads in
 * `ast` at once, is gone with one worker (below); the second run stays as a guard, since the crash
 * says nothing of the API. Any check failure fails at once.
 */
async function fuzz(extra: readonly string[]): Promise<{ code: number; output: string }> {
  const first = await fuzzOnce(extra);
  const toolCrashOnly = first.code !== 0 && first.output.includes("AST constructor recursion depth mismatch") && !/=+ FAILURES =+/.test(first.output);
  if (!toolCrashOnly) return first;
  console.warn("schemathesis crashed inside Hypothesis (CPython ast recursion-depth bug); running it once more");
  return fuzzOnce(extra);
}

async function fuzzOnce(extra: readonly string[]): Promise<{ code: number; output: string }> {
  const args = [
    "--config-file", "test/integration/hardening/schemathesis.toml",
    "run", `${svc.url}/v1/openapi.json`,
    "--checks", "all",
    "--max-examples", EXAMPLES,
    "--seed", SEED,
    // One worker: CPython 3.11's ast keeps its recursion depth per interpreter, not per thread
    // (python/cpython#106905), so two worker threads describing lambdas at once crash it.
    "--workers", "1",
    "--suppress-health-check", "all",
    "--no-color",
    ...extra,
  ];
  try {
    const { stdout, stderr } = await run(schemathesis, args, { maxBuffer: 64 * 1024 * 1024, timeout: 240_000 });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, output: `${e.stdout ?? ""}${e.stderr ?? String(err)}` };
  }
}

describe("Schemathesis finds nothing", () => {
  it("on the keyless surface (every operation, key routes answering 401)", async () => {
    const result = await fuzz([]);
    if (result.code !== 0) throw new Error(`schemathesis failed (exit ${result.code}):\n${result.output}`);
    expect(result.output).toMatch(/Test cases:\s+\d+ generated/);
  }, 300_000);

  it("on the keyed surface with a Pro key (rotating or deactivating that key is left out: it would end the run)", async () => {
    const result = await fuzz(["--header", `X-API-Key: ${proKey}`, "--exclude-name", "POST /v1/keys/rotate", "--exclude-name", "DELETE /v1/keys/current"]);
    if (result.code !== 0) throw new Error(`schemathesis failed (exit ${result.code}):\n${result.output}`);
    expect(result.output).toMatch(/Test cases:\s+\d+ generated/);
  }, 300_000);
});
