import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "./free-port.js";
import { waitFor } from "./wait-for.js";

export interface ChildService {
  readonly url: string;
  readonly child: ChildProcess;
  readonly output: () => string;
  /** Sends a signal and resolves with the exit code. */
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The service as its own process (`node --import tsx src/main.ts`), as an operator runs it. */
export async function startChildService(env: Record<string, string>): Promise<ChildService> {
  const port = await freePort();
  let out = "";
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    env: { ...process.env, LOG_LEVEL: "warn", REPLAY_WARMUP_DAYS: "0", ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  // Fail at once, with the output, when the process dies instead of becoming healthy.
  const died = exited.then((code) => {
    throw new Error(`service exited early with code ${String(code)}: ${out}`);
  });
  // Ready, not just live: the port is bound before start-up and warm-up run (issue 19), so a
  // test that went on at the first 200 of /v1/health would race the warm-up.
  await Promise.race([died, waitFor(async () => (await fetch(`${url}/v1/health/ready`)).ok, 90_000, "the service to answer /v1/health/ready")]);
  died.catch(() => undefined);
  return {
    url,
    child,
    output: () => out,
    async kill(signal = "SIGTERM") {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
