import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { accessLog } from "../../../src/http/middleware/access-log.js";
import { captureLogger } from "../../support/capture-logger.js";

/** The access log on a real Express server, at the levels an operator sets with LOG_LEVEL. */
async function linesAt(level: string): Promise<string[]> {
  const { logger, lines } = captureLogger(level);
  const app = express();
  app.use(accessLog(logger));
  app.get("/ok", (_req, res) => void res.json({ ok: true }));
  app.get("/warming", (_req, res) => void res.status(503).json({ detail: { error: "warming_up" } }));
  app.get("/broken", (_req, res) => void res.status(500).json({ detail: "Internal Server Error" }));
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    for (const path of ["/ok", "/warming", "/broken"]) await (await fetch(base + path)).arrayBuffer();
    // "finish" fires once the answer is written; give the last one its turn to log.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return lines.map((l) => `${String(l.msg)} ${String(l.status)}`);
}

describe("the access log at each level", () => {
  it("writes every request at info, and still the refusals and failures at warn", async () => {
    expect(await linesAt("info")).toEqual(["request 200", "request refused: unavailable 503", "request failed 500"]);
    expect(await linesAt("warn")).toEqual(["request refused: unavailable 503", "request failed 500"]);
    expect(await linesAt("error")).toEqual(["request failed 500"]);
  });
});
