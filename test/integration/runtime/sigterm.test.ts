import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";

const fixture = fileURLToPath(new URL("./fixtures/sigterm-host.ts", import.meta.url));

describe("SIGTERM during a long turn", () => {
  it("lets the turn finish and commit, then exits 0", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "sigterm-")), "mis.sqlite");
    const child = spawn(process.execPath, ["--import", "tsx", fixture, path], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (c: Buffer) => {
        out += c.toString();
        if (out.includes("ready")) resolve();
      });
      child.once("exit", () => reject(new Error(`fixture exited early: ${err}`)));
    });
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(out).toContain("stopped");
    const store = openSqliteStore(path);
    try {
      expect(Object.fromEntries(await store.actorState.loadState({ type: "Publisher", id: "long" }))).toEqual({ slow: '"done"' });
    } finally {
      await store.close();
    }
  }, 30_000);
});
