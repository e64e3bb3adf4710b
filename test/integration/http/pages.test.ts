import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mountPages } from "../../../src/http/routes/pages.js";

let root: string;
let server: Server;
let url: string;

beforeAll(async () => {
  // An install under a dot-folder, as ~/.local/… or a CI workspace can be.
  root = mkdtempSync(join(tmpdir(), "pages-"));
  const webDir = join(root, ".local", "dist", "web");
  mkdirSync(join(webDir, "assets"), { recursive: true });
  writeFileSync(join(webDir, "index.html"), "<!doctype html><title>dashboard</title>");
  writeFileSync(join(webDir, "docs.html"), "<!doctype html><title>docs</title>");
  writeFileSync(join(webDir, "assets", "app.js"), "console.log(1);");
  writeFileSync(join(webDir, "assets", ".secret.js"), "no");
  const app = express();
  mountPages(app, webDir);
  app.use((_req, res) => void res.status(404).json({ detail: "Not Found" }));
  server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(root, { recursive: true, force: true });
});

describe("dashboard pages", () => {
  it("are served from a build directory under a dot-folder (every page was 400 there)", async () => {
    for (const [path, text] of [["/", "dashboard"], ["/docs", "docs"], ["/assets/app.js", "console.log"]] as const) {
      const res = await fetch(url + path);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain(text);
    }
  });

  it("still refuse a dotfile inside the build directory, as a plain 404", async () => {
    const res = await fetch(`${url}/assets/.secret.js`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ detail: "Not Found" });
  });
});
