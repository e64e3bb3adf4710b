import { ConfigError } from "../config/env.js";
import { cliGroups, cliHelp } from "./registry.js";

/**
 * Operator CLI: `npm run --silent cli -- <group> <command> …`. Each group lives in
 * src/cli/commands/<group>.ts; output for machines is JSON on stdout, diagnostics on stderr.
 */
const HELP = new Set(["--help", "-h", "help"]);
const [group, ...rest] = process.argv.slice(2);
if (group !== undefined && HELP.has(group)) {
  process.stdout.write(cliHelp());
  process.exit(0);
}
const entry = group !== undefined && Object.hasOwn(cliGroups, group) ? cliGroups[group] : undefined;
if (!entry) {
  process.stderr.write(group === undefined ? cliHelp() : `unknown group "${group}"\n${cliHelp()}`);
  process.exit(2);
}
const loaded = await entry.load();
// `cli keys --help`, and `cli keys create --help` too: asking for help is never a mistyped option.
if ((rest.length === 1 && HELP.has(rest[0] ?? "")) || rest.some((a) => a === "--help" || a === "-h")) {
  process.stdout.write(`${loaded.usage}\n`);
  process.exit(0);
}
// A reader that stops early (`… | head`) closes the pipe: that is not a failure of the command.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(0);
  throw err;
});
try {
  process.exitCode = await loaded.run(rest, { stdout: process.stdout, stderr: process.stderr });
} catch (err) {
  process.exitCode = exitFor(err, loaded.usage);
}

/**
 * One line and an exit code for what a command did not handle itself, never a stack: a mistyped
 * option (2, with the usage), a bad setting (78, as the service exits), anything else (1: the
 * store unreachable, say).
 */
function exitFor(err: unknown, usage: string): number {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    return 78;
  }
  const code = typeof err === "object" && err !== null && "code" in err ? String(err.code) : "";
  const message = err instanceof Error ? err.message : String(err);
  if (code.startsWith("ERR_PARSE_ARGS_")) {
    process.stderr.write(`${message}\n${usage}\n`);
    return 2;
  }
  process.stderr.write(`error: ${message}\n`);
  return 1;
}
