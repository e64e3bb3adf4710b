import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { freePort } from "./free-port.js";
import { waitFor } from "./wait-for.js";

/** The name the model is served under (`--alias`), i.e. the service's LLM_MODEL. */
export const LLAMA_MODEL = "smollm2";

export interface LlamaPaths {
  readonly bin: string;
  readonly model: string;
}

/**
 * llama.cpp's llama-server and the SmolLM2-135M-Instruct GGUF, built and extracted once into the
 * cache by scripts/ensure-llama.sh (the global set-up already ran it; this returns at once).
 * Fails loudly with the script's own message when a prerequisite is missing: never skips.
 */
export function llamaPaths(): LlamaPaths {
  const built = spawnSync("bash", ["scripts/ensure-llama.sh"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (built.status !== 0) throw new Error(`llama-server could not be prepared: ${built.stderr.slice(-2000)}`);
  const [bin, model] = built.stdout.trim().split("\n").slice(-2);
  if (!bin || !model) throw new Error(`scripts/ensure-llama.sh printed no paths: ${built.stdout}`);
  return { bin, model };
}

export interface LlamaServer {
  /** OpenAI-compatible base URL, version prefix included (the service's LLM_BASE_URL). */
  readonly baseUrl: string;
  readonly port: number;
  readonly apiKey: string;
  /** Stops the process (SIGTERM, then SIGKILL) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port (after stop), as an operator restarting it would. */
  start(): Promise<void>;
  /** SIGSTOP: the socket still accepts connections but nothing answers (a hung server). */
  freeze(): void;
  /** SIGCONT after freeze. */
  thaw(): void;
  readonly running: boolean;
}

/**
 * A real llama-server with the real model on a free loopback port, behind an API key: the
 * arguments of DECISIONS 6 (`-c 2048 -t 1 -np 1`: one thread, one request at a time, like a small
 * production box). Resolves once /health answers 200 (model loaded).
 */
export async function startLlamaServer(options: { apiKey?: string } = {}): Promise<LlamaServer> {
  const paths = llamaPaths();
  const port = await freePort();
  const apiKey = options.apiKey ?? `sk-llama-test-${port}`;
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  let stderrTail = "";

  const start = async () => {
    if (child !== null) throw new Error("llama-server is already running");
    const proc = spawn(
      paths.bin,
      ["-m", paths.model, "--alias", LLAMA_MODEL, "--host", "127.0.0.1", "--port", String(port), "-c", "2048", "-t", "1", "-np", "1", "--api-key", apiKey],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    proc.stderr?.on("data", (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString("utf8")).slice(-4000);
    });
    child = proc;
    exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
    void exited.then(() => {
      if (child === proc) child = null;
    });
    await waitFor(
      async () => {
        if (child !== proc) throw new Error(`llama-server exited: ${stderrTail.slice(-1500)}`);
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        return res.status === 200;
      },
      60_000,
      "llama-server to load the model",
    );
  };

  await start();
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    apiKey,
    get running() {
      return child !== null;
    },
    start,
    async stop() {
      const proc = child;
      if (proc === null) return;
      proc.kill("SIGCONT");
      proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
    freeze() {
      child?.kill("SIGSTOP");
    },
    thaw() {
      child?.kill("SIGCONT");
    },
  };
}
