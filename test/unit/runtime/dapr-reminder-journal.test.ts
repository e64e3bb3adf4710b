import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { DaprActorHost } from "../../../src/runtime/dapr/dapr-host.js";
import { SidecarClient } from "../../../src/runtime/dapr/sidecar-client.js";
import { captureLogger } from "../../support/capture-logger.js";
import { ReminderActor } from "./fixtures/sample-actors.js";

interface StateOp {
  readonly operation: "upsert" | "delete";
  readonly request: { readonly key: string; readonly value?: unknown };
}

interface FakeSidecar {
  readonly server: Server;
  readonly port: number;
  readonly state: Map<string, string>;
  /** Reminders daprd holds, by "type/id/name", with the body they were registered with. */
  readonly reminders: Map<string, { dueTime: string; period?: string }>;
  /** While true, daprd's scheduler refuses registrations (a restart, a slow scheduler). */
  refuseReminders: boolean;
}

/**
 * The sidecar endpoints a turn touches, on a local server: daprd's scheduler refusing a
 * registration after the state committed cannot be produced on demand with a real daprd.
 */
async function fakeSidecar(state = new Map<string, string>()): Promise<FakeSidecar> {
  const fake = { state, reminders: new Map<string, { dueTime: string; period?: string }>(), refuseReminders: false } as FakeSidecar;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      const url = req.url ?? "";
      const read = /^\/v1\.0\/actors\/([^/]+)\/([^/]+)\/state\/([^/]+)$/.exec(url);
      const write = /^\/v1\.0\/actors\/([^/]+)\/([^/]+)\/state$/.exec(url);
      const reminder = /^\/v1\.0\/actors\/([^/]+)\/([^/]+)\/reminders\/([^/]+)$/.exec(url);
      if (req.method === "GET" && read) {
        const value = fake.state.get(`${read[1]}/${read[2]}/${read[3]}`);
        res.writeHead(value === undefined ? 204 : 200).end(value ?? "");
      } else if (req.method === "POST" && write) {
        for (const op of JSON.parse(body) as StateOp[]) {
          const key = `${write[1]}/${write[2]}/${op.request.key}`;
          if (op.operation === "upsert") fake.state.set(key, JSON.stringify(op.request.value));
          else fake.state.delete(key);
        }
        res.writeHead(204).end();
      } else if (reminder && fake.refuseReminders) {
        res.writeHead(500, { "content-type": "application/json" }).end('{"errorCode":"ERR_ACTOR_REMINDER_CREATE"}');
      } else if (reminder) {
        const key = `${reminder[1]}/${reminder[2]}/${reminder[3]}`;
        if (req.method === "POST") fake.reminders.set(key, JSON.parse(body) as { dueTime: string; period?: string });
        else fake.reminders.delete(key);
        res.writeHead(204).end();
      } else {
        res.writeHead(204).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(fake, { server, port: (server.address() as AddressInfo).port });
}

describe("Dapr reminders registered after the commit", () => {
  const servers: Server[] = [];
  const hosts: DaprActorHost[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.shutdown()));
    await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  });

  const start = (side: FakeSidecar): DaprActorHost => {
    const host = new DaprActorHost({ sidecar: new SidecarClient(side.port), clock: new ManualClock(0), logger: captureLogger().logger });
    host.register(ReminderActor);
    hosts.push(host);
    return host;
  };

  it("registers a reminder daprd refused once daprd takes it again, without another turn", async () => {
    const side = await fakeSidecar();
    servers.push(side.server);
    const host = start(side);
    side.refuseReminders = true;
    const answer = await host.handleCall("Reminded", "j1", "schedule", JSON.stringify({ name: "evaluate", dueInMs: 60_000, periodMs: 60_000 }));
    expect(answer.status).toBe(200);
    expect(side.reminders.size).toBe(0);
    // The commit carried the change: it is in the actor's stored journal.
    expect(side.state.get("Reminded/j1/__reminders")).toContain("evaluate");
    side.refuseReminders = false;
    await expect.poll(() => side.reminders.get("Reminded/j1/evaluate"), { timeout: 5_000, interval: 50 }).toMatchObject({ dueTime: "60000ms", period: "60000ms" });
    await expect.poll(() => side.state.has("Reminded/j1/__reminders"), { timeout: 5_000, interval: 50 }).toBe(false);
  });

  it("registers what a crashed replica left in the journal when the actor next activates", async () => {
    const side = await fakeSidecar();
    servers.push(side.server);
    side.refuseReminders = true;
    await start(side).handleCall("Reminded", "j2", "schedule", JSON.stringify({ name: "evaluate", dueInMs: 60_000, periodMs: 60_000 }));
    expect(side.state.get("Reminded/j2/__reminders")).toContain("evaluate");
    // That replica is gone; daprd places the actor on a new one, whose first call activates it.
    await hosts[0]?.shutdown();
    side.refuseReminders = false;
    const next = start(side);
    expect((await next.handleCall("Reminded", "j2", "firings", "")).status).toBe(200);
    expect(side.reminders.get("Reminded/j2/evaluate")).toMatchObject({ period: "60000ms" });
    expect(side.state.has("Reminded/j2/__reminders")).toBe(false);
  });
});
