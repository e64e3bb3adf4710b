import { describe, expect, it } from "vitest";
import { runCli } from "../../support/cli.js";
import { cliGroups } from "../../../src/cli/registry.js";

/** The operator CLI's front door, run as a process the way an operator runs it. */
describe("cli --help", () => {
  it("lists every group with what it does, on stdout, exit 0", async () => {
    for (const flag of ["--help", "-h", "help"]) {
      const r = await runCli([flag], {});
      expect({ flag, code: r.code }).toEqual({ flag, code: 0 });
      for (const [name, group] of Object.entries(cliGroups)) expect(r.stdout).toMatch(new RegExp(`^  ${name} +${group.summary.replace(/[()]/g, "\\$&")}$`, "m"));
      expect(r.stderr).toBe("");
    }
  }, 60_000);

  it("prints each group's commands for `cli <group> --help`, on stdout, exit 0", async () => {
    for (const name of Object.keys(cliGroups)) {
      const r = await runCli([name, "--help"], {});
      expect({ name, code: r.code, stderr: r.stderr }).toEqual({ name, code: 0, stderr: "" });
      expect(r.stdout.startsWith(`usage: ${name} `)).toBe(true);
    }
  }, 120_000);

  it("answers --help after a command, or among its options, with the group's usage, exit 0: asking is not a mistyped option", async () => {
    for (const args of [["keys", "create", "--help"], ["verdicts", "export", "--asset", "BTC", "-h"], ["regime", "fit", "--help"]]) {
      const r = await runCli(args, {});
      expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: "" });
      expect(r.stdout.startsWith(`usage: ${args[0]} `)).toBe(true);
    }
  }, 60_000);

  it("answers no group or an unknown one with the same list on stderr, exit 2, and no stack trace", async () => {
    const none = await runCli([], {});
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("usage: npm run --silent cli -- <keys|ghost|backtest|regime|newsletter|privacy|verdicts>");
    // `toString` is a property of every object: it was looked up as a group and crashed the process.
    const odd = await runCli(["toString"], {});
    expect(odd.code).toBe(2);
    expect(odd.stderr.split("\n")[0]).toBe('unknown group "toString"');
    expect(odd.stderr).not.toMatch(/^\s+at /m);
    expect(odd.stdout).toBe("");
  }, 60_000);
});
