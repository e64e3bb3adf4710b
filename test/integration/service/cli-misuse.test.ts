import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../support/cli.js";
import { openStore } from "../../../src/store/open-store.js";

const scratch = () => mkdtempSync(join(tmpdir(), "cli-misuse-"));
const STACK = /^\s+at /m;

/** What an operator gets for a mistake: one clear message, the right exit code, nothing written. */
describe("the operator CLI on misuse", () => {
  it("answers a mistyped option with the usage and exit 2, before it opens (or creates) any store", async () => {
    const dir = scratch();
    const storeUrl = `sqlite:${join(dir, "never", "mis.sqlite")}`;
    for (const args of [
      ["keys", "create", "--teir", "pro"],
      ["keys", "create", "--tier", "pro", "--name"],
      ["keys", "deactivate", "--linage", "x"],
      ["keys", "list", "--json"],
      ["keys", "typo"],
      ["ghost", "restart", "--asset", "BTC", "--reason", "x", "--force"],
    ]) {
      const r = await runCli(args, { STORE_URL: storeUrl });
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr, args.join(" ")).toMatch(/usage: (keys|ghost) /);
      expect(r.stderr, args.join(" ")).not.toMatch(STACK);
      expect(r.stdout).toBe("");
    }
    expect(existsSync(join(dir, "never"))).toBe(false);
  }, 120_000);

  it("answers a bad setting with one line naming it and exit 78, as the service does", async () => {
    const r = await runCli(["keys", "list"], { STORE_URL: `sqlite:${join(scratch(), "mis.sqlite")}`, QUOTA_FREE_PER_DAY: "0" });
    expect(r.code).toBe(78);
    expect(r.stderr).toContain("QUOTA_FREE_PER_DAY");
    expect(r.stderr).not.toMatch(STACK);
  }, 60_000);

  it("answers an unreachable store with one line and exit 1", async () => {
    const r = await runCli(["keys", "list"], { STORE_URL: "mongodb://127.0.0.1:1/mis?serverSelectionTimeoutMS=300" });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: /);
    expect(r.stderr).not.toMatch(STACK);
  }, 60_000);

  it("refuses a key name with control characters, as the HTTP route does", async () => {
    const storeUrl = `sqlite:${join(scratch(), "mis.sqlite")}`;
    for (const name of ["\u001b[2J\u001b[31mevil", "over\u202eride", "   "]) {
      const r = await runCli(["keys", "create", "--tier", "free", "--name", name], { STORE_URL: storeUrl });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
    }
    const listed = await runCli(["keys", "list"], { STORE_URL: storeUrl });
    expect(JSON.parse(listed.stdout)).toEqual([]);
  }, 120_000);

  it("refuses --from and --to that are not a day or a date-time with its zone, instead of reading them in local time", async () => {
    for (const from of ["2024-01-01T03:00", "2024-02-30", "1"]) {
      const r = await runCli(["verdicts", "export", "--asset", "BTC", "--from", from, "--to", "2024-03-02"], { TZ: "Asia/Tokyo" });
      expect({ from, code: r.code }).toEqual({ from, code: 2 });
      expect(r.stderr).toContain("must be an ISO date");
      expect(r.stdout).toBe("");
    }
    // A day is its 00:00 UTC whatever the machine's zone.
    const day = await runCli(["verdicts", "export", "--asset", "BTC", "--from", "2024-01-01", "--to", "2024-01-01T02:00:00Z"], { TZ: "Asia/Tokyo" });
    expect(day.code, day.stderr).toBe(0);
    expect(day.stdout.split("\n").slice(1, 4).map((row) => row.split(",")[0])).toEqual(["2024-01-01T00:00:00.000Z", "2024-01-01T01:00:00.000Z", "2024-01-01T02:00:00.000Z"]);
  }, 300_000);

  it("says a backtest window outside the bundled history has no history, exit 2, instead of an empty table", async () => {
    const r = await runCli(["backtest", "--asset", "BTC", "--from", "2030-01-01", "--to", "2030-02-01"], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no BTC history in 2030-01-01T00:00:00.000Z");
    expect(r.stdout).toBe("");
    // With no --to the window would end where the data ends: still no history, not "from after to".
    const open = await runCli(["backtest", "--asset", "BTC", "--from", "2030-01-01"], {});
    expect(open.code).toBe(2);
    expect(open.stderr).toContain("no BTC history from 2030-01-01T00:00:00.000Z on");
    expect(open.stderr).not.toContain("usage:");
  }, 120_000);

  it("says an export window in order that holds no hour of the history has none, instead of blaming the arguments", async () => {
    for (const [asset, from, to] of [
      ["TAO", "2024-09-10", "2024-09-10T06:00:00Z"], // inside TAO's September 2024 gap
      ["BTC", "2024-01-01T03:30:00Z", "2024-01-01T03:45:00Z"], // within one hour
    ] as const) {
      const r = await runCli(["verdicts", "export", "--asset", asset, "--from", from, "--to", to], {});
      expect({ asset, code: r.code }).toEqual({ asset, code: 2 });
      expect(r.stderr).toContain(`no ${asset} hour in the history between`);
      expect(r.stderr).not.toContain("must not be after to");
      expect(r.stdout).toBe("");
    }
    const after = await runCli(["verdicts", "export", "--asset", "BTC", "--from", "2030-01-01"], {});
    expect(after.code).toBe(2);
    expect(after.stderr).toContain("no BTC hour in the history from 2030-01-01T00:00:00.000Z on");
    const reversed = await runCli(["verdicts", "export", "--asset", "BTC", "--from", "2024-01-02", "--to", "2024-01-01"], {});
    expect(reversed.code).toBe(2);
    expect(reversed.stderr).toContain("from: must not be after to");
  }, 300_000);

  it("refuses a fit with more states than observations, and a blank number", async () => {
    const dir = scratch();
    const input = join(dir, "obs.csv");
    writeFileSync(input, ["a,b", ...Array.from({ length: 20 }, (_, i) => `${Math.sin(i)},${Math.cos(i)}`)].join("\n") + "\n");
    const tooMany = await runCli(["regime", "fit", "--input", input, "--states", "30", "--seed", "7"], {});
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain("more states than the 20 observations");
    const blank = await runCli(["regime", "fit", "--input", input, "--states", "2", "--seed", "7", "--tolerance", ""], {});
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain("--tolerance");
  }, 60_000);

  it("reads regime numbers in decimal only, bounds the work a typo can ask for, and refuses to score what no state explains", async () => {
    const dir = scratch();
    const input = join(dir, "obs.csv");
    writeFileSync(input, ["a,b", ...Array.from({ length: 20 }, (_, i) => `${Math.sin(i)},${Math.cos(i)}`)].join("\n") + "\n");
    for (const [flag, value] of [["--seed", "0x10"], ["--restarts", "100000000"], ["--iterations", "1e9"], ["--states", "0b11"]] as const) {
      const args = ["regime", "fit", "--input", input, "--states", "2", "--seed", "7"];
      const at = args.indexOf(flag);
      if (at >= 0) args[at + 1] = value;
      else args.push(flag, value);
      const r = await runCli(args, {});
      expect({ flag, code: r.code }).toEqual({ flag, code: 2 });
      expect(r.stderr).toContain(flag);
      expect(r.stdout).toBe("");
    }
    const hex = join(dir, "hex.csv");
    writeFileSync(hex, "a,b\n0x10,1\n2,3\n");
    const cells = await runCli(["regime", "fit", "--input", hex, "--states", "1", "--seed", "7"], {});
    expect(cells.code).toBe(1);
    expect(cells.stderr).toContain('obs.csv line 2, column a: "0x10" is not a finite number');
    const modelFile = join(dir, "model.json");
    const fitted = await runCli(["regime", "fit", "--input", input, "--states", "2", "--seed", "7"], {});
    expect(fitted.code, fitted.stderr).toBe(0);
    writeFileSync(modelFile, fitted.stdout);
    const far = join(dir, "far.csv");
    writeFileSync(far, "a,b\n1e300,-1e300\n1,1\n");
    const scored = await runCli(["regime", "score", "--model", modelFile, "--input", far], {});
    expect(scored.code).toBe(1);
    expect(scored.stderr).toContain("probability 0 under every state");
    expect(scored.stdout).toBe("");
  }, 120_000);

  it("ends quietly, exit 0, when the reader of its output stops early (`| head`)", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "verdicts", "export", "--asset", "BTC", "--from", "2023-01-01", "--to", "2024-01-01"], {
      env: { ...process.env, LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    // The first chunk read, the pipe closed: what `head -1` does.
    child.stdout.once("data", () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    expect(stderr).not.toContain("EPIPE");
  }, 300_000);
});

describe("the embedded store's files", () => {
  it("are readable by their owner only: they hold webhook secrets as issued, key hashes and e-mail addresses", async () => {
    const dir = join(scratch(), "data");
    const path = join(dir, "mis.sqlite");
    const store = await openStore(`sqlite:${path}`);
    try {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      for (const file of [path, `${path}-wal`, `${path}-shm`].filter((f) => existsSync(f))) expect({ file, mode: statSync(file).mode & 0o777 }).toEqual({ file, mode: 0o600 });
    } finally {
      await store.close();
    }
  });
});
