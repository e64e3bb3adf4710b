import type { CliCommand } from "./io.js";

/**
 * CLI groups by name; each capability adds its group here. Loaded on demand, so a command
 * compiles and loads only its own imports: `regime` needs no store and no exchange client, and
 * the whole process (issue 20: an 8×4 fit under 3 s) pays only for what it runs.
 */
export const cliCommands: Record<string, () => Promise<CliCommand>> = {
  keys: async () => (await import("./commands/keys.js")).keysCommand,
  ghost: async () => (await import("./commands/ghost.js")).ghostCommand,
  backtest: async () => (await import("./commands/backtest.js")).backtestCommand,
  regime: async () => (await import("./commands/regime.js")).regimeCommand,
  verdicts: async () => (await import("./commands/verdicts.js")).verdictsCommand,
};
