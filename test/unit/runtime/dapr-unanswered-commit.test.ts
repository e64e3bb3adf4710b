import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { DaprActorHost } from "../../../src/runtime/dapr/dapr-host.js";
import { SidecarClient } from "../../../src/runtime/dapr/sidecar-client.js";
import { captureLogger } from "../../support/capture-logger.js";
import { CounterActor, PublisherActor } from "./fixtures/sample-actors.js";

/**
 * A real daprd cannot be made to apply a state transaction and then answer after the caller's
 * time limit, which a busy two-core machine does; so a local server speaks the sidecar's state
 * API (GET a key, POST a transaction) over a real store map, and can land a write but answer late.
 */
async function sidecar(): Promise<{ server: Server; port: number; state: Map<string, string>; landLateOnce: () => void }> {
  const state = new Map<string, string>();
  let late = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      const url = req.url ?? "";
      const read = /^\/v1\.0\/actors\/([^/]+)\/([^/]+)\/state\/([^/]+)$/.exec(url);
      const write = /^\/v1\.0\/actors\/([^/]+)\/([^/]+)\/state$/.exec(url);
      if (req.method === "GET" && read) {
        const value = state.get(`${read[1]}/${read[2]}/${decodeURIComponent(read[3] ?? "")}`);
        res.writeHead(value === undefined ? 204 : 200).end(value ?? "");
        return;
      }
      if (req.method === "POST" && write) {
        for (const op of JSON.parse(body) as { operation: string; request: { key: string; value?: unknown } }[]) {
          const key = `${write[1]}/${write[2]}/${op.request.key}`;
          if (op.operation === "upsert") state.set(key, JSON.stringify(op.request.value));
          else state.delete(key);
        }
        if (late > 0) {
          late--;
          setTimeout(() => res.writeHead(204).end(), 300);
        } else res.writeHead(204).end();
        return;
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, state, landLateOnce: () => (late = 1) };
}

describe("a Dapr state write that lands but is answered after the time limit", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  const hostOn = (port: number) => {
    const log = captureLogger();
    const host = new DaprActorHost({ sidecar: new SidecarClient(port, "127.0.0.1", { stateMs: 100, reminderMs: 1_000, invokeMs: 1_000, otherMs: 1_000 }), clock: new ManualClock(0), logger: log.logger });
    return { host, log };
  };

  it("loses no update: the next turn reads the actor afresh, and a repeat of the landed call runs once", async () => {
    const side = await sidecar();
    server = side.server;
    const { host, log } = hostOn(side.port);
    host.register(CounterActor);
    expect((await host.handleCall("Counter", "c", "add", "1", "call-0001")).status).toBe(200);
    side.landLateOnce();
    // The caller sees a failure; the write landed all the same (n = 2 in the store).
    expect((await host.handleCall("Counter", "c", "add", "1", "call-0002")).status).toBe(500);
    expect(log.lines.some((l) => l.msg === "state write unanswered: activation forgotten, the next turn reads the actor afresh")).toBe(true);
    // Its caller sends it again with the same id: answered from the landed call memory, not run again.
    expect(JSON.parse((await host.handleCall("Counter", "c", "add", "1", "call-0002")).body)).toBe(2);
    expect(JSON.parse((await host.handleCall("Counter", "c", "add", "1", "call-0003")).body)).toBe(3);
    expect(JSON.parse((await host.handleCall("Counter", "c", "value", "")).body)).toBe(3);
    await host.shutdown();
  });

  it("keeps the landed turn's event: the next turn's outbox adds to it rather than writing over it", async () => {
    const side = await sidecar();
    server = side.server;
    const { host } = hostOn(side.port);
    // No bus: events stay pending in the actor's stored outbox, where they can be counted.
    host.register(PublisherActor, (ctx) => new PublisherActor(ctx, Promise.resolve()));
    await host.handleCall("Publisher", "p", "emit", JSON.stringify({ k: 1 }));
    side.landLateOnce();
    await host.handleCall("Publisher", "p", "emit", JSON.stringify({ k: 2 }));
    await host.handleCall("Publisher", "p", "emit", JSON.stringify({ k: 3 }));
    const stored = JSON.parse(side.state.get("Publisher/p/__outbox") ?? "null") as { $json: string };
    const pending = JSON.parse(stored.$json) as { envelope: string }[];
    expect(pending.map((r) => (JSON.parse(r.envelope) as { data: unknown }).data)).toEqual([{ k: 1 }, { k: 2 }, { k: 3 }]);
    await host.shutdown();
  });
});
