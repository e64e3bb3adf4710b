import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock, type Clock } from "../../../src/runtime/clocks/clock.js";
import { ReplayMarketClock } from "../../../src/runtime/clocks/market-clock.js";
import { DaprActorHost } from "../../../src/runtime/dapr/dapr-host.js";
import { SidecarClient } from "../../../src/runtime/dapr/sidecar-client.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { openSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../../src/store/store.js";
import { captureLogger } from "../../support/capture-logger.js";
import { ReminderActor } from "./fixtures/sample-actors.js";
import { loadConfig } from "../../../src/config/env.js";
import { openActors } from "../../../src/composition/open-actors.js";

/** Market time of the replay's start, and wall time of the test's start: far apart on purpose. */
const MARKET_T0 = Date.UTC(2025, 0, 1);
const WALL_T0 = Date.UTC(2026, 5, 1);
const DAY = 24 * 60 * 60 * 1000;

function localHost(store: Store, market: Clock, wall: Clock): LocalActorHost {
  const host = new LocalActorHost({ store: store.actorState, clock: market, wallClock: wall, logger: captureLogger().logger, pollIntervalMs: 0 });
  host.register(ReminderActor);
  return host;
}

async function fired(host: LocalActorHost, id: string): Promise<string[]> {
  return (await host.proxy(ReminderActor, id).firings()).map((f) => f.name);
}

describe("reminders on a named clock, on the local host", () => {
  let store: Store;
  let host: LocalActorHost | undefined;

  beforeEach(() => {
    store = openSqliteStore(":memory:");
  });
  afterEach(async () => {
    await host?.shutdown();
    host = undefined;
    await store.close();
  });

  it("fires a wall reminder when only the wall clock advances: the replay stopped at the end of its data", async () => {
    const wall = new ManualClock(WALL_T0);
    // The data ends one market minute after the start: one wall second at speed 60.
    const market = new ReplayMarketClock(wall, MARKET_T0, 60, MARKET_T0 + 60_000);
    market.run();
    host = localHost(store, market, wall);
    await host.start();
    const actor = host.proxy(ReminderActor, "retrying");
    await actor.schedule({ name: "retry", clock: "wall", dueInMs: 5_000 });
    await actor.schedule({ name: "tick", clock: "market", dueInMs: 120_000 });

    wall.advance(4_999);
    await host.runDue();
    expect(market.now()).toBe(market.end);
    expect(await fired(host, "retrying")).toEqual([]);

    wall.advance(1);
    await host.runDue();
    expect(await fired(host, "retrying")).toEqual(["retry"]);

    // The market reminder lies past the data's end: however long the wall runs, it waits.
    wall.advance(DAY);
    await host.runDue();
    expect(await fired(host, "retrying")).toEqual(["retry"]);
  });

  it("does not fire a market reminder when only the wall clock advances during warm-up", async () => {
    const wall = new ManualClock(WALL_T0);
    const market = new ReplayMarketClock(wall, MARKET_T0, 60, MARKET_T0 + 30 * DAY);
    expect(market.warmingUp).toBe(true);
    host = localHost(store, market, wall);
    await host.start();
    const actor = host.proxy(ReminderActor, "warming");
    await actor.schedule({ name: "tick", dueInMs: 60_000 });
    await actor.schedule({ name: "retry", clock: "wall", dueInMs: 60_000 });

    wall.advance(DAY);
    await host.runDue();
    expect(await fired(host, "warming")).toEqual(["retry"]);

    // The warm-up's fast-forward is what moves market time, and with it market reminders.
    market.advanceTo(MARKET_T0 + 60_000);
    await host.runDue();
    expect(await fired(host, "warming")).toEqual(["retry", "tick"]);
  });

  it("stores the clock with the reminder, and a reminder re-set on the other clock follows only the new one", async () => {
    const wall = new ManualClock(WALL_T0);
    const market = new ManualClock(MARKET_T0);
    host = localHost(store, market, wall);
    await host.start();
    const actor = host.proxy(ReminderActor, "moved");
    await actor.schedule({ name: "r", clock: "wall", dueInMs: 1_000 });
    expect(await store.actorState.loadReminders()).toMatchObject([{ name: "r", clock: "wall", dueAt: WALL_T0 + 1_000 }]);

    await actor.schedule({ name: "r", dueInMs: 1_000 });
    expect(await store.actorState.loadReminders()).toMatchObject([{ name: "r", clock: "market", dueAt: MARKET_T0 + 1_000 }]);
    wall.advance(DAY);
    await host.runDue();
    expect(await fired(host, "moved")).toEqual([]);

    market.advance(1_000);
    await host.runDue();
    expect(await fired(host, "moved")).toEqual(["r"]);
  });
});

interface SetReminder {
  readonly name: string;
  readonly body: { dueTime: string; period?: string; data: string };
}

/** The few sidecar endpoints a reminder-setting turn touches; reminder registrations are recorded. */
async function recordingSidecar(): Promise<{ server: Server; port: number; reminders: SetReminder[] }> {
  const reminders: SetReminder[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      const reminder = /\/reminders\/([^/]+)$/.exec(req.url ?? "");
      if (req.method === "POST" && reminder?.[1]) reminders.push({ name: decodeURIComponent(reminder[1]), body: JSON.parse(body) as SetReminder["body"] });
      // State reads find nothing (204); transactions and reminder registrations succeed.
      res.writeHead(req.method === "GET" ? 204 : 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, reminders };
}

describe("reminders on a named clock, on the Dapr host", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("schedules a wall reminder with the wall delay and a market reminder scaled to wall time", async () => {
    const side = await recordingSidecar();
    server = side.server;
    const host = new DaprActorHost({
      sidecar: new SidecarClient(side.port),
      clock: new ManualClock(MARKET_T0),
      clockRate: 60,
      wallClock: new ManualClock(WALL_T0),
      logger: captureLogger().logger,
    });
    host.register(ReminderActor);
    const wallAnswer = await host.handleCall("Reminded", "d1", "schedule", JSON.stringify({ name: "retry", clock: "wall", dueInMs: 5_000 }));
    expect(wallAnswer.status).toBe(200);
    const marketAnswer = await host.handleCall("Reminded", "d1", "schedule", JSON.stringify({ name: "tick", dueInMs: 60_000, periodMs: 300_000 }));
    expect(marketAnswer.status).toBe(200);

    const [retry, tick] = side.reminders;
    expect(retry?.name).toBe("retry");
    expect(retry?.body.dueTime).toBe("5000ms");
    expect(retry?.body.period).toBeUndefined();
    expect(JSON.parse(retry?.body.data ?? "{}")).toMatchObject({ clock: "wall", periodMs: null });
    // 60 market seconds at REPLAY_SPEED 60 are one wall second; the period likewise.
    expect(tick?.name).toBe("tick");
    expect(tick?.body).toMatchObject({ dueTime: "1000ms", period: "5000ms" });
    expect(JSON.parse(tick?.body.data ?? "{}")).toMatchObject({ clock: "market", periodMs: 300_000 });
    await host.shutdown();
  });

  it("scales market reminders by the speed of the cluster clock the replica joined, not its own REPLAY_SPEED", async () => {
    const side = await recordingSidecar();
    server = side.server;
    const wall = new ManualClock(WALL_T0);
    const market = new ReplayMarketClock(wall, MARKET_T0, 60, MARKET_T0 + 365 * DAY);
    const config = loadConfig({ ACTOR_RUNTIME: "dapr", APP_API_TOKEN: "t".repeat(32), DAPR_HTTP_PORT: String(side.port), DAPR_HOST: "127.0.0.1", REPLAY_SPEED: "60", LOG_LEVEL: "silent" });
    const store = openSqliteStore(":memory:");
    const opened = openActors(config, store, market, wall, captureLogger().logger);
    if (opened.kind !== "dapr") throw new Error("expected the Dapr host");
    opened.host.register(ReminderActor);
    // The cluster's clock runs at 600x (another replica founded it); this one follows it.
    market.runFrom({ wallAt: WALL_T0, marketAt: MARKET_T0, speed: 600 });
    expect((await opened.host.handleCall("Reminded", "r1", "schedule", JSON.stringify({ name: "tick", dueInMs: 60_000, periodMs: 300_000 }))).status).toBe(200);
    // 60 market seconds at 600x are 100 wall ms (at its own 60x they would have been 1 s).
    expect(side.reminders.at(-1)?.body).toMatchObject({ dueTime: "100ms", period: "500ms" });
    await opened.host.shutdown();
    await store.close();
  });

  it("fires a reminder Dapr holds from before clocks were named (no clock in its data) as a market reminder", async () => {
    const side = await recordingSidecar();
    server = side.server;
    const host = new DaprActorHost({ sidecar: new SidecarClient(side.port), clock: new ManualClock(MARKET_T0), logger: captureLogger().logger });
    host.register(ReminderActor);
    const data = JSON.stringify({ payload: JSON.stringify("old"), periodMs: null });
    const answer = await host.handleReminder("Reminded", "old", "legacy", JSON.stringify({ data }));
    expect(answer.status).toBe(200);
    const firings = await host.handleCall("Reminded", "old", "firings", "");
    expect(JSON.parse(firings.body)).toEqual([{ name: "legacy", at: MARKET_T0, payload: "old" }]);
    await host.shutdown();
  });
});
