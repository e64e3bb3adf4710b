import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";

/** A bench target in its own process, so the load generator does not share its event loop. */
export interface ChildTarget {
  readonly child: ChildProcess;
  readonly port: number;
  /** The API key the target created for its keyed routes, where it has any. */
  readonly key?: string;
}

/**
 * Starts `node [nodeFlags] --import tsx <script> [args]` (without tsx for compiled `.js`) and waits for the one JSON line
 * `{port, key?}` every bench target prints once it listens. `nodeFlags` is how the profile script
 * runs the same target under `--cpu-prof`.
 */
export async function startChildTarget(script: string, args: readonly string[], nodeFlags: readonly string[] = []): Promise<ChildTarget> {
  const loader = script.endsWith(".js") ? [] : ["--import", "tsx"];
  const child = spawn(process.execPath, [...nodeFlags, ...loader, script, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${script} ${args.join(" ")} exited ${String(code)}`)));
    createInterface({ input: child.stdout! }).once("line", resolve);
  });
  const { port, key } = JSON.parse(line) as { port: number; key?: string };
  return { child, port, key };
}

/** SIGTERM, then waits for the exit (the targets write their profiles and close their stores on it). */
export async function stopChildTarget(t: ChildTarget): Promise<void> {
  if (t.child.exitCode !== null || t.child.signalCode !== null) return;
  const exited = new Promise((resolve) => t.child.once("exit", resolve));
  t.child.kill("SIGTERM");
  await exited;
}
