import { cliCommands } from "./registry.js";

/**
 * Operator CLI: `npm run --silent cli -- <group> <command> …`. Each group lives in
 * src/cli/commands/<group>.ts; output for machines is JSON on stdout, diagnostics on stderr.
 */
const [group, ...rest] = process.argv.slice(2);
const command = group ? cliCommands[group] : undefined;
if (!command) {
  process.stderr.write(`usage: cli <${Object.keys(cliCommands).join("|")}> …\n`);
  process.exit(2);
}
const code = await (await command())(rest, { stdout: process.stdout, stderr: process.stderr });
process.exitCode = code;
