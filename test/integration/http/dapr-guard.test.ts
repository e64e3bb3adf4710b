import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createConnection } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../../src/http/app.js";
import { DAPR_API_TOKEN_HEADER, DAPRD_KEEP_ALIVE_MS, daprCallerGuard } from "../../../src/http/middleware/dapr-caller-guard.js";
import { bindServer, createLimitedServer } from "../../../src/http/listen.js";
import { loadConfig } from "../../../src/config/env.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { captureLogger } from "../../support/capture-logger.js";
import { startService, type RunningService } from "../../support/service.js";

/**
 * Audit 2026-11-26, finding 7: a call to daprd's callback routes without daprd's token is
 * answered by the API pipeline exactly like an unknown path (status, body, X-Request-Id,
 * helmet's headers), so nothing tells a stranger that the routes exist.
 */

const TOKEN = "the-app-api-token";
const log = captureLogger("info");
const clock = new ManualClock(Date.UTC(2026, 10, 26, 9));
let svc: RunningService;
let server: Server;
let base: string;

beforeAll(async () => {
  svc = await startService({}, { capabilities: [] });
  // A stand-in for the actor and pub/sub routers: what gets through the guard is answered here.
  const callbacks = express.Router();
  callbacks.get("/dapr/config", (_req, res) => {
    res.json({ entities: ["MarketData"] });
  });
  callbacks.put("/actors/:type/:id/method/:method", (_req, res) => {
    res.json({ ok: true });
  });
  const { app } = createApp({ ...svc.service.deps, logger: log.logger }, [], [daprCallerGuard(TOKEN, log.logger, [callbacks], clock)]);
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await svc.stop();
});

/** The headers that tell one answer from another, with the per-request values reduced to their presence. */
async function shape(res: Response): Promise<{ status: number; body: unknown; headers: Record<string, string> }> {
  const headers = Object.fromEntries([...res.headers].filter(([name]) => name !== "date").map(([name, value]) => [name, name === "x-request-id" ? "(set)" : value]));
  return { status: res.status, body: await res.json(), headers };
}

describe("the Dapr callback guard", () => {
  it("answers a caller without daprd's token exactly like an unknown path", async () => {
    const unknown = await shape(await fetch(`${base}/no/such/path`));
    expect(unknown.status).toBe(404);
    expect(unknown.headers["x-request-id"]).toBe("(set)");
    expect(unknown.headers["content-security-policy"]).toBeDefined();
    for (const [method, path] of [
      ["GET", "/dapr/config"],
      ["PUT", "/actors/MarketData/BTC/method/ensureScheduled"],
      ["GET", "/no/such/path"],
    ] as const) {
      for (const token of [undefined, "wrong"]) {
        const res = await fetch(base + path, { method, headers: token === undefined ? {} : { [DAPR_API_TOKEN_HEADER]: token } });
        expect({ method, path, ...(await shape(res)) }).toEqual({ method, path, ...unknown });
      }
    }
  });

  it("lets daprd's calls through, and warns about refusals at most once a minute", async () => {
    const config = await fetch(`${base}/dapr/config`, { headers: { [DAPR_API_TOKEN_HEADER]: TOKEN } });
    expect(config.status).toBe(200);
    expect(await config.json()).toEqual({ entities: ["MarketData"] });

    clock.advance(60_000);
    const before = log.lines.filter((l) => l.msg === "dapr callback refused").length;
    for (let i = 0; i < 5; i++) expect((await fetch(`${base}/dapr/config`)).status).toBe(404);
    expect(log.lines.filter((l) => l.msg === "dapr callback refused")).toHaveLength(before + 1);
    // Each refusal still has its access-log line, with its request id, like any 404.
    const refusals = log.lines.filter((l) => l.msg === "request" && l.path === "/dapr/config" && l.status === 404);
    expect(refusals.length).toBeGreaterThanOrEqual(5);
    expect(refusals.every((l) => typeof l.req_id === "string" && l.req_id.length > 0)).toBe(true);
  });

  it("keeps daprd's connections open past the API's keep-alive, so daprd (idle 90 s) closes them first", async () => {
    // The service's own server with a 300 ms keep-alive: a stranger's idle connection goes then.
    const limits = loadConfig({ HTTP_KEEP_ALIVE_TIMEOUT_MS: "300" });
    const callbacks = express.Router();
    callbacks.put("/actors/:type/:id/method/:method", (_req, res) => {
      res.json({ ok: true });
    });
    const { app } = createApp({ ...svc.service.deps, logger: log.logger }, [], [daprCallerGuard(TOKEN, log.logger, [callbacks], clock)]);
    const limited = createLimitedServer(limits, app);
    const port = await bindServer(limited, 0, "127.0.0.1");
    // A raw connection, as daprd's Go client holds one: it ignores Keep-Alive hints, so only the
    // server decides when an idle connection closes.
    const connect = async () => {
      const socket = createConnection({ host: "127.0.0.1", port });
      await new Promise((resolve) => socket.once("connect", resolve));
      let received = "";
      let closed = false;
      socket.on("data", (d: Buffer) => (received += d.toString()));
      socket.on("close", () => (closed = true));
      const put = async (headers: Record<string, string>) => {
        received = "";
        const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("");
        socket.write(`PUT /actors/MarketData/BTC/method/ensureScheduled HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n${extra}\r\n{}`);
        while (!/\r\n\r\n[\s\S]*\}$/.test(received) && !closed) await new Promise((resolve) => setTimeout(resolve, 10));
        return Number(/^HTTP\/1\.1 (\d+)/.exec(received)?.[1] ?? 0);
      };
      return { put, isClosed: () => closed, socket };
    };
    // Node closes an idle connection 1 s after the keep-alive it advertises.
    const idle = () => new Promise((resolve) => setTimeout(resolve, 2_000));
    const daprd = await connect();
    const stranger = await connect();
    try {
      expect(await daprd.put({ [DAPR_API_TOKEN_HEADER]: TOKEN })).toBe(200);
      expect(await stranger.put({})).toBe(404);
      await idle();
      // Idle well past the API's keep-alive: the stranger's connection is gone, the one
      // daprd used is still open and serves the next call.
      expect(stranger.isClosed()).toBe(true);
      expect(daprd.isClosed()).toBe(false);
      expect(await daprd.put({ [DAPR_API_TOKEN_HEADER]: TOKEN })).toBe(200);
      expect(DAPRD_KEEP_ALIVE_MS).toBeGreaterThan(90_000);
    } finally {
      for (const c of [daprd, stranger]) c.socket.destroy();
      limited.closeAllConnections();
      await new Promise((resolve) => limited.close(resolve));
    }
  });
});
