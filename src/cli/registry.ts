import type { CliCommand } from "./io.js";

/** A group's entry point and what `cli <group> --help` prints. */
export interface LoadedGroup {
  readonly run: CliCommand;
  readonly usage: string;
}

export interface CliGroup {
  /** One line for `cli --help`. */
  readonly summary: string;
  readonly load: () => Promise<LoadedGroup>;
}

/** A group whose module is imported on first use (each `import()` stays literal for tsc and tsx). */
const lazy = <M>(summary: string, load: () => Promise<M>, pick: (module: M) => LoadedGroup): CliGroup => ({ summary, load: async () => pick(await load()) });

/**
 * CLI groups by name; each capability adds its group here. Loaded on demand, so a command
 * compiles and loads only its own imports: `regime` needs no store and no exchange client, and
 * the whole process (issue 20: an 8×4 fit under 3 s) pays only for what it runs.
 */
export const cliGroups: Readonly<Record<string, CliGroup>> = {
  keys: lazy("create, deactivate and list API keys (stored as hashes; a key is shown once)", () => import("./commands/keys.js"), (m) => ({ run: m.keysCommand, usage: m.keysUsage })),
  ghost: lazy("start a new Ghost Trader sprint, or sign TAO off paper mode", () => import("./commands/ghost.js"), (m) => ({ run: m.ghostCommand, usage: m.ghostUsage })),
  backtest: lazy("the engine backtest over the bundled history, with its benchmarks; writes nothing", () => import("./commands/backtest.js"), (m) => ({ run: m.backtestCommand, usage: m.backtestUsage })),
  regime: lazy("fit and score the hidden Markov model on a CSV of observations", () => import("./commands/regime.js"), (m) => ({ run: m.regimeCommand, usage: m.regimeUsage })),
  newsletter: lazy("remove a newsletter subscriber (an unsubscribe or erasure request)", () => import("./commands/newsletter.js"), (m) => ({ run: m.newsletterCommand, usage: m.newsletterUsage })),
  privacy: lazy("erase what the service stores about an e-mail address (an erasure request)", () => import("./commands/privacy.js"), (m) => ({ run: m.privacyCommand, usage: m.privacyUsage })),
  verdicts: lazy("export the walk-forward hourly verdicts as the service would have published them", () => import("./commands/verdicts.js"), (m) => ({ run: m.verdictsCommand, usage: m.verdictsUsage })),
};

/** What `cli --help` prints (and a call without a known group, on stderr). */
export function cliHelp(): string {
  const names = Object.keys(cliGroups);
  const width = Math.max(...names.map((n) => n.length));
  const lines = Object.entries(cliGroups).map(([name, g]) => `  ${name.padEnd(width)}  ${g.summary}`);
  return [`usage: npm run --silent cli -- <${names.join("|")}> …`, "", ...lines, "", "`cli <group> --help` prints a group's commands. More: README.md, \"Operator CLI\".", ""].join("\n");
}
