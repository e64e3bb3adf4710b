import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { DaprActorHost } from "../../../src/runtime/dapr/dapr-host.js";
import { daprActorRouter } from "../../../src/runtime/dapr/actor-routes.js";
import { SidecarClient } from "../../../src/runtime/dapr/sidecar-client.js";
import { captureLogger } from "../../support/capture-logger.js";
import { fakeSidecar } from "./fixtures/fake-sidecar.js";
import { CounterActor } from "./fixtures/sample-actors.js";

describe("a Dapr host whose sidecar restarted while the process kept running", () => {
  let servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    servers = [];
  });

  it("reads an actor's state afresh once daprd asks for the configuration, instead of its stale activation", async () => {
    const side = await fakeSidecar();
    const state = side.state;
    const host = new DaprActorHost({ sidecar: new SidecarClient(side.port), clock: new ManualClock(0), logger: captureLogger().logger });
    host.register(CounterActor);
    const app = express().use(daprActorRouter(host));
    const api = app.listen(0, "127.0.0.1");
    servers = [side.server, api];
    await new Promise<void>((resolve) => api.once("listening", () => resolve()));
    const appUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;

    expect(JSON.parse((await host.handleCall("Counter", "c1", "add", "2")).body)).toBe(2);
    // Meanwhile the actor ran on another replica, which committed 40.
    state.set("Counter/c1/n", JSON.stringify({ $json: "40" }));
    // A stale activation still answers from what it read before.
    expect(JSON.parse((await host.handleCall("Counter", "c1", "value", "")).body)).toBe(2);

    // The new daprd starts by asking the app for its configuration; then placement hands the actor back.
    const config = await fetch(`${appUrl}/dapr/config`);
    expect(((await config.json()) as { entities: string[] }).entities).toContain("Counter");
    expect(JSON.parse((await host.handleCall("Counter", "c1", "add", "1")).body)).toBe(41);
    expect(state.get("Counter/c1/n")).toBe(JSON.stringify({ $json: "41" }));
    await host.shutdown();
  });
});
