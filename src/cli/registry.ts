import type { CliCommand } from "./io.js";
import { keysCommand } from "./commands/keys.js";
import { ghostCommand } from "./commands/ghost.js";
import { backtestCommand } from "./commands/backtest.js";

/** CLI groups by name; each capability adds its group here. */
export const cliCommands: Record<string, CliCommand> = {
  keys: keysCommand,
  ghost: ghostCommand,
  backtest: backtestCommand,
};
