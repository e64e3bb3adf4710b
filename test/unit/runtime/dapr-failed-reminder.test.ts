import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { DaprActorHost } from "../../../src/runtime/dapr/dapr-host.js";
import { SidecarClient } from "../../../src/runtime/dapr/sidecar-client.js";
import { captureLogger } from "../../support/capture-logger.js";
import { ReminderActor } from "./fixtures/sample-actors.js";

/**
 * A state transaction daprd refuses cannot be produced on demand by a real sidecar, so a local
 * server speaks the few sidecar endpoints a reminder turn touches and records what it is sent.
 */
describe("a Dapr reminder turn that fails", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function sidecar(): Promise<{ port: number; reminders: Array<{ url: string; body: string }> }> {
    const reminders: Array<{ url: string; body: string }> = [];
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        if (req.url?.includes("/reminders/")) reminders.push({ url: `${req.method} ${req.url}`, body });
        // Reads find nothing; the turn's state transaction is refused.
        const status = req.method === "GET" ? 204 : req.url?.endsWith("/state") ? 500 : 204;
        res.writeHead(status, { "content-type": "application/json" }).end(status === 500 ? '{"errorCode":"ERR_ACTOR_STATE_TRANSACTION_SAVE"}' : "");
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    return { port: (server?.address() as AddressInfo).port, reminders };
  }

  const remind = (periodMs: number | null): string => JSON.stringify({ data: JSON.stringify({ payload: "null", periodMs, clock: "wall" }) });

  it("registers a one-shot reminder again 30 s later: Dapr has consumed it and the turn that would re-arm it rolled back", async () => {
    const side = await sidecar();
    const host = new DaprActorHost({ sidecar: new SidecarClient(side.port), clock: new ManualClock(0), logger: captureLogger().logger });
    host.register(ReminderActor);
    const answer = await host.handleReminder("Reminded", "r1", "deliver", remind(null));
    expect(answer.status).toBe(200);
    expect(side.reminders).toHaveLength(1);
    expect(side.reminders[0]?.url).toBe("POST /v1.0/actors/Reminded/r1/reminders/deliver");
    expect(JSON.parse(side.reminders[0]?.body ?? "{}")).toMatchObject({ dueTime: "30000ms" });
    expect(JSON.parse(side.reminders[0]?.body ?? "{}")).not.toHaveProperty("period");
    await host.shutdown();
  });

  it("leaves a periodic reminder to Dapr's own schedule", async () => {
    const side = await sidecar();
    const host = new DaprActorHost({ sidecar: new SidecarClient(side.port), clock: new ManualClock(0), logger: captureLogger().logger });
    host.register(ReminderActor);
    const answer = await host.handleReminder("Reminded", "r2", "tick", remind(60_000));
    expect(answer.status).toBe(200);
    expect(side.reminders).toEqual([]);
    await host.shutdown();
  });
});
