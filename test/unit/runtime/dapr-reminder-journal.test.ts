import type { Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { DaprActorHost } from "../../../src/runtime/dapr/dapr-host.js";
import { SidecarClient } from "../../../src/runtime/dapr/sidecar-client.js";
import { captureLogger } from "../../support/capture-logger.js";
import { fakeSidecar, type FakeSidecar } from "./fixtures/fake-sidecar.js";
import { ReminderActor } from "./fixtures/sample-actors.js";

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
