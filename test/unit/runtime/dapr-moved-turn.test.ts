import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { DaprActorHost } from "../../../src/runtime/dapr/dapr-host.js";
import { SidecarClient } from "../../../src/runtime/dapr/sidecar-client.js";
import { captureLogger } from "../../support/capture-logger.js";
import { CounterActor } from "./fixtures/sample-actors.js";

/**
 * daprd's answers in a placement rebalance cannot be produced on demand by a real sidecar, so a
 * local server speaks the sidecar API's few endpoints a turn touches, answering as daprd does
 * when the actor moved to another replica during the turn.
 */
async function sidecar(handle: (req: IncomingMessage, body: string) => { status: number; body: string }): Promise<{ server: Server; port: number; calls: string[] }> {
  const calls: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      calls.push(`${req.method} ${req.url}`);
      const answer = handle(req, body);
      res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, calls };
}

/**
 * How daprd relays an app's error answer to the calling replica, as recorded from daprd 1.16.2
 * in the multi-replica chaos suite: our JSON body, escaped, inside daprd's own message.
 */
function relayedByDaprd(appBody: unknown): string {
  return JSON.stringify({ errorCode: "ERR_ACTOR_INVOKE_METHOD", message: `error invoke actor method: error from actor service: (500) ${JSON.stringify(appBody)}` });
}

const MISSING = JSON.stringify({ errorCode: "ERR_ACTOR_INSTANCE_MISSING", message: "actor instance is missing" });

describe("a Dapr turn whose actor moved to another replica mid-turn", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("is rolled back, logged as a warning (not an error) and answered with the actor_moved code", async () => {
    const side = await sidecar((req) => {
      if (req.method === "GET") return { status: 204, body: "" };
      if (req.method === "POST" && req.url?.endsWith("/state")) return { status: 400, body: MISSING };
      return { status: 200, body: "" };
    });
    server = side.server;
    const log = captureLogger();
    const host = new DaprActorHost({ sidecar: new SidecarClient(side.port), clock: new ManualClock(0), logger: log.logger });
    host.register(CounterActor);
    const answer = await host.handleCall("Counter", "c1", "add", "2");
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toMatchObject({ code: "actor_moved" });
    const failures = log.lines.filter((l) => String(l.msg).includes("rolled back"));
    expect(failures.map((l) => l.level)).toEqual([40]);
    // Nothing of the turn stayed: the next turn starts from the stored (absent) value again.
    const again = await host.handleCall("Counter", "c1", "value", "");
    expect(JSON.parse(again.body)).toBe(0);
    await host.shutdown();
  });

  it("is run again by the calling replica, which then gets the new owner's answer", async () => {
    let invokes = 0;
    const side = await sidecar((req) => {
      if (req.url?.includes("/method/")) {
        invokes++;
        return invokes === 1
          ? { status: 500, body: relayedByDaprd({ error: "Counter/c1 moved to another replica during its turn", code: "actor_moved" }) }
          : { status: 200, body: "3" };
      }
      return { status: 200, body: "" };
    });
    server = side.server;
    const host = new DaprActorHost({ sidecar: new SidecarClient(side.port), clock: new ManualClock(0), logger: captureLogger().logger });
    host.register(CounterActor);
    await expect(host.proxy(CounterActor, "c1").add(3)).resolves.toBe(3);
    expect(invokes).toBe(2);
    await host.shutdown();
  });

  it("still fails at once for a turn that failed for any other reason", async () => {
    let invokes = 0;
    const side = await sidecar(() => {
      invokes++;
      return { status: 500, body: JSON.stringify({ error: "boom after writing" }) };
    });
    server = side.server;
    const host = new DaprActorHost({ sidecar: new SidecarClient(side.port), clock: new ManualClock(0), logger: captureLogger().logger });
    host.register(CounterActor);
    await expect(host.proxy(CounterActor, "c1").add(3)).rejects.toThrow("boom after writing");
    expect(invokes).toBe(1);
    await host.shutdown();
  });
});

describe("a Dapr turn whose state read daprd holds (a rebalance in progress)", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("fails at the read's time limit instead of waiting for ever, answering actor_retry, and frees the actor", async () => {
    let held = true;
    const hanging: ServerResponse[] = [];
    const server2 = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        // daprd holding the read while placement rebalances: no answer at all.
        if (req.method === "GET" && held) return void hanging.push(res);
        res.writeHead(req.method === "GET" ? 204 : 200, { "content-type": "application/json" }).end();
      });
    });
    await new Promise<void>((resolve) => server2.listen(0, "127.0.0.1", resolve));
    server = server2;
    const port = (server2.address() as AddressInfo).port;
    const log = captureLogger();
    const sidecar = new SidecarClient(port, "127.0.0.1", { stateMs: 200, reminderMs: 1_000, invokeMs: 5_000, otherMs: 1_000 });
    const host = new DaprActorHost({ sidecar, clock: new ManualClock(0), logger: log.logger });
    host.register(CounterActor);
    const answer = await host.handleCall("Counter", "c1", "add", "2");
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toMatchObject({ code: "actor_retry" });
    // The mailbox is free again: daprd's deactivation (its drain) completes, and so does the next turn.
    expect(await host.handleDeactivate("Counter", "c1")).toMatchObject({ status: 200 });
    held = false;
    const again = await host.handleCall("Counter", "c1", "add", "2");
    expect(JSON.parse(again.body)).toBe(2);
    for (const res of hanging) res.destroy();
    await host.shutdown();
  });

  it("is retried by the calling replica on actor_retry", async () => {
    let invokes = 0;
    const side = await sidecar(() => {
      invokes++;
      return invokes < 3
        ? { status: 500, body: relayedByDaprd({ error: "GET /actors/Counter/c1/state/n: daprd did not answer within 5000 ms", code: "actor_retry" }) }
        : { status: 200, body: "7" };
    });
    server = side.server;
    const host = new DaprActorHost({ sidecar: new SidecarClient(side.port), clock: new ManualClock(0), logger: captureLogger().logger });
    host.register(CounterActor);
    await expect(host.proxy(CounterActor, "c1").add(7)).resolves.toBe(7);
    expect(invokes).toBe(3);
    await host.shutdown();
  });
});
