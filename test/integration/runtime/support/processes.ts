import { spawn, type ChildProcess } from "node:child_process";

export interface Child {
  readonly name: string;
  readonly process: ChildProcess;
  /** The last output lines, for failure messages. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts a server binary; its output is kept (not printed) so a failing test can show it. */
export function startChild(name: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Child {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const keep = (chunk: Buffer): void => {
    for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) lines.push(line);
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return {
    name,
    process: child,
    output: () => lines.join("\n"),
    stop: (signal = "SIGTERM") =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const kill = setTimeout(() => child.kill("SIGKILL"), 5000);
        child.once("exit", () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill(signal);
      }),
  };
}

/** Polls until `ready` resolves true; fails with the child's output after `timeoutMs`. */
export async function waitUntil(what: string, ready: () => Promise<boolean>, timeoutMs: number, child?: Child): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await ready()) return;
    } catch {
      // Not up yet.
    }
    if (child && child.process.exitCode !== null) throw new Error(`${child.name} exited (${child.process.exitCode}):\n${child.output()}`);
    if (Date.now() > deadline) throw new Error(`${what} not ready after ${timeoutMs} ms${child ? `:\n${child.output()}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
