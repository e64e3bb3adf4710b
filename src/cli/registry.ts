import type { CliCommand } from "./io.js";

export interface CliGroup {
  /** One line for `cli --help`; the group prints its own usage when called without a command. */
  readonly summary: string;
  readonly load: () => Promise<CliCommand>;
}

/**
 * CLI groups by name; each capability adds its group here. Loaded on demand, so a command
 * compiles and loads only its own imports: `regime` needs no store and no exchange client, and
 * the whole process (issue 20: an 8×4 fit under 3 s) pays only for what it runs.
 */
export const cliGroups: Readonly<Record<string, CliGroup>> = {
  keys: { summary: "create, deactivate and list API keys (stored as hashes; a key is shown once)", load: async () => (await import("./commands/keys.js")).keysCommand },
  ghost: { summary: "start a new Ghost Trader sprint, or sign TAO off paper mode", load: async () => (await import("./commands/ghost.js")).ghostCommand },
  backtest: { summary: "the engine backtest over the bundled history, with its benchmarks; writes nothing", load: async () => (await import("./commands/backtest.js")).backtestCommand },
  regime: { summary: "fit and score the hidden Markov model on a CSV of observations", load: async () => (await import("./commands/regime.js")).regimeCommand },
  verdicts: { summary: "export the walk-forward hourly verdicts as the service would have published them", load: async () => (await import("./commands/verdicts.js")).verdictsCommand },
};

/** What `cli --help` prints (and a call without a known group, on stderr). */
export function cliHelp(): string {
  const names = Object.keys(cliGroups);
  const width = Math.max(...names.map((n) => n.length));
  const lines = Object.entries(cliGroups).map(([name, g]) => `  ${name.padEnd(width)}  ${g.summary}`);
  return [`usage: npm run --silent cli -- <${names.join("|")}> …`, "", ...lines, "", "A group called without a command prints its usage. More: README.md, \"Operator CLI\".", ""].join("\n");
}
