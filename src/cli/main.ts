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
if (rest.length === 1 && HELP.has(rest[0] ?? "")) {
  process.stdout.write(`${loaded.usage}\n`);
  process.exit(0);
}
process.exitCode = await loaded.run(rest, { stdout: process.stdout, stderr: process.stderr });
