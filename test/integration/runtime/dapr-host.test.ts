import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wallClock } from "../../../src/runtime/clocks/clock.js";
import type { DaprActorHost } from "../../../src/runtime/dapr/dapr-host.js";
import type { EventEnvelope } from "../../../src/events/event-envelope.js";
import type { DaprEventBus } from "../../../src/events/dapr-bus.js";
import { captureLogger } from "../../support/capture-logger.js";
import { CounterActor, KeeperActor, LifecycleActor, PublisherActor, ReminderActor } from "../../unit/runtime/fixtures/sample-actors.js";
import { hmmFromJson } from "../../../src/domain/regime/model-json.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { MemoryActorStateStore } from "../../../src/store/memory/actor-state.js";
import { handoverOf } from "../../../src/composition/dapr-warm-up.js";
import { ADOPT_METHOD } from "../../../src/runtime/actor-handover.js";
import { replicaAt, startControlPlane, startReplica, type ControlPlane, type Replica } from "./support/dapr-cluster.js";

/**
 * The same sample actors as the local host's suites, on a real Dapr 1.16.2: placement,
 * scheduler, Redis as the actor state store and two app replicas with one app id, each with
 * its own daprd. Dapr runs on wall time, so these tests wait (with generous bounds) where the
 * local suites move a ManualClock.
 */
describe("dapr actor host", () => {
  let plane: ControlPlane;
  const replicas: Replica[] = [];
  const log = captureLogger();
  // Events that came back through Dapr pub/sub, with the replica that received each.
  const received: Array<{ replica: string; event: EventEnvelope }> = [];
  const subscriber = (replicaName: string) => (bus: DaprEventBus) => {
    bus.subscribe("test.event", async (event) => {
      received.push({ replica: replicaName, event });
    });
  };
  const journal: string[] = [];
  const setup = (host: DaprActorHost): void => {
    host.register(CounterActor);
    host.register(KeeperActor);
    host.register(ReminderActor);
    host.register(LifecycleActor, (ctx) => new LifecycleActor(ctx, journal));
    host.register(PublisherActor, (ctx) => new PublisherActor(ctx, Promise.resolve()));
  };

  beforeAll(async () => {
    plane = await startControlPlane();
    replicas.push(await startReplica(plane, "a", setup, { clock: wallClock, logger: log.logger, subscribe: subscriber("a") }));
    replicas.push(await startReplica(plane, "b", setup, { clock: wallClock, logger: log.logger, subscribe: subscriber("b") }));
  }, 180_000);

  afterAll(async () => {
    if (process.env.DEBUG_DAPR_TEST) for (const l of log.lines.filter((x) => Number(x.level) >= 40)) console.log(JSON.stringify(l).slice(0, 400));
    for (const r of replicas) await r.stop();
    await plane?.stop();
  }, 60_000);

  const replica = (i: number): Replica => replicaAt(replicas, i);

  it("reaches actors through either replica, one turn at a time", async () => {
    const viaA = replica(0).host.proxy(CounterActor, "dapr-c1");
    const results = await Promise.all(Array.from({ length: 100 }, () => viaA.add(1)));
    expect([...results].sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    // Written through one replica, read through the other.
    expect(await replica(1).host.proxy(CounterActor, "dapr-c1").value()).toBe(100);
    // One activation in the whole cluster (once placement has settled on both sidecars).
    const everywhere = (): string[] => [...replica(0).host.activeIds("Counter"), ...replica(1).host.activeIds("Counter")];
    await expect.poll(everywhere, { timeout: 15_000, interval: 100 }).toEqual(["dapr-c1"]);
  });

  it("rolls back a failed turn and reports the failure to the caller", async () => {
    const counter = replica(1).host.proxy(CounterActor, "dapr-r1");
    await counter.add(5);
    await expect(counter.addThenFail(3)).rejects.toThrow(/boom after writing/);
    expect(await replica(0).host.proxy(CounterActor, "dapr-r1").value()).toBe(5);
    expect(log.lines.some((l) => l.actorId === "dapr-r1" && l.turn === "addThenFail")).toBe(true);
  });

  it("fires a reminder on schedule and with its period", async () => {
    const actor = replica(0).host.proxy(ReminderActor, "dapr-p1");
    const setAt = Date.now();
    await actor.schedule({ name: "every", dueInMs: 1000, periodMs: 1000, payload: { k: 1 } });
    await expect.poll(async () => (await actor.firings()).length, { timeout: 20_000, interval: 200 }).toBeGreaterThanOrEqual(2);
    const firings = await actor.firings();
    expect(firings[0]).toMatchObject({ name: "every", payload: { k: 1 } });
    expect(firings[0]!.at).toBeGreaterThanOrEqual(setAt + 900);
    await actor.cancel("every");
  }, 30_000);

  it("keeps a failing reminder on its period and rolls back its turns", async () => {
    const actor = replica(1).host.proxy(ReminderActor, "dapr-f1");
    await actor.failing(true);
    await actor.schedule({ name: "flaky", dueInMs: 500, periodMs: 1000 });
    const failures = (): number => log.lines.filter((l) => l.actorId === "dapr-f1" && l.turn === "reminder flaky").length;
    await expect.poll(failures, { timeout: 15_000, interval: 100 }).toBeGreaterThanOrEqual(2);
    expect(await actor.firings()).toEqual([]);
    await actor.failing(false);
    await expect.poll(async () => (await actor.firings()).length, { timeout: 15_000, interval: 100 }).toBeGreaterThanOrEqual(1);
    await actor.cancel("flaky");
  }, 40_000);

  it("delivers an event published in a turn through Dapr pub/sub, once", async () => {
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push(await replica(1).host.proxy(PublisherActor, `dapr-pub${n}`).emit({ n }));
    await expect.poll(() => ids.every((id) => received.some((r) => r.event.id === id)), { timeout: 15_000, interval: 100 }).toBe(true);
    // Both replicas subscribe under one app id: each event reaches one of them.
    for (const id of ids) expect(received.filter((r) => r.event.id === id)).toHaveLength(1);
    expect(received.find((r) => r.event.id === ids[0])?.event).toMatchObject({ event: "test.event", data: { n: 0 } });
  });

  it("reads back what a turn stored through the Redis actor state store, numbers included", async () => {
    const sixth = 1 / 6;
    const model = {
      startprob: [sixth, sixth, sixth, sixth, sixth, sixth],
      transmat: Array.from({ length: 6 }, () => [sixth, sixth, sixth, sixth, sixth, sixth]),
      means: Array.from({ length: 6 }, (_, i) => [0.123456789 * (i + 1), -1.5e-7]),
      covars: Array.from({ length: 6 }, () => [1.000001, 2]),
    };
    const value = { at: 1_741_503_612_345, price: 84_123.456789, model };
    await replica(0).host.proxy(KeeperActor, "dapr-k1").keep(value);
    // Gone from memory on whichever replica hosts it: the next turn reads the store's copy.
    for (const r of replicas) await r.host.handleDeactivate("Keeper", "dapr-k1");
    const back = (await replica(1).host.proxy(KeeperActor, "dapr-k1").kept()) as typeof value;
    // Every digit (Redis keeps 6 decimals of a JSON number; the host stores JSON text, stored-value.ts).
    expect(back).toEqual(value);
    // A stored model reloads as exact distributions.
    const params = hmmFromJson(back.model);
    for (let i = 0; i < 6; i++) expect(Array.from(params.transMat.subarray(i * 6, i * 6 + 6)).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it("adopts actors built on another host: their state, and their reminders firing on Dapr", async () => {
    // The Dapr warm-up's path (issue 17 item 7): actors run on an in-process host, then move in.
    const memory = new MemoryActorStateStore();
    const local = new LocalActorHost({ store: memory, clock: wallClock, logger: log.logger, pollIntervalMs: 0 });
    local.register(CounterActor);
    local.register(ReminderActor);
    await local.start();
    await local.proxy(CounterActor, "dapr-adopt-c").add(41);
    await local.proxy(ReminderActor, "dapr-adopt-r").schedule({ name: "every", dueInMs: 1000, periodMs: 1000, payload: { k: 2 } });
    await local.shutdown();
    // Activated on Dapr before the handover, on empty state: the adoption replaces it.
    expect(await replica(1).host.proxy(CounterActor, "dapr-adopt-c").value()).toBe(0);
    const now = Date.now();
    const holdings = memory.holdings();
    expect(holdings.map((h) => h.actor.id).sort()).toEqual(["dapr-adopt-c", "dapr-adopt-r"]);
    const adoptedAt = Date.now();
    for (const h of holdings) await replica(0).host.adopt(handoverOf(h, now, now));
    expect(await replica(1).host.proxy(CounterActor, "dapr-adopt-c").value()).toBe(41);
    expect(await replica(0).host.proxy(CounterActor, "dapr-adopt-c").add(1)).toBe(42);
    const reminded = replica(0).host.proxy(ReminderActor, "dapr-adopt-r");
    await expect.poll(async () => (await reminded.firings()).length, { timeout: 20_000, interval: 200 }).toBeGreaterThanOrEqual(2);
    const firings = await reminded.firings();
    expect(firings[0]).toMatchObject({ name: "every", payload: { k: 2 } });
    // Due a second after it was set on the other host, not at once and not a period late.
    expect(firings[0]!.at).toBeGreaterThanOrEqual(adoptedAt + 500);
    await reminded.cancel("every");
  }, 40_000);

  it("refuses a handover that names another actor", async () => {
    const answer = await replica(0).host.handleCall("Counter", "dapr-adopt-x", ADOPT_METHOD, JSON.stringify({ type: "Counter", id: "someone-else", state: [], reminders: [] }));
    expect(answer.status).toBe(400);
  });

  it("answers deactivations of actors this replica never had without crashing", async () => {
    const answer = await replica(0).host.handleDeactivate("Counter", "never-activated-here");
    expect(answer.status).toBe(200);
    const unknownType = await replica(0).host.handleDeactivate("NoSuchType", "x");
    expect(unknownType.status).toBe(200);
  });

  it("moves a killed replica's actors to the other with state intact; its return crashes nothing", async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `dapr-m${i}`);
    await Promise.all(ids.map((id, i) => replica(0).host.proxy(CounterActor, id).add(i + 1)));
    const onB = replica(1).host.activeIds("Counter").filter((id) => ids.includes(id));
    expect(onB.length).toBeGreaterThan(0);
    // A reminder pending on an actor of the replica that is about to die.
    const remindedId = onB[0]!;
    const reminded = replica(0).host.proxy(ReminderActor, remindedId);
    await reminded.schedule({ name: "later", dueInMs: 4000, payload: "p" });

    const b = replicas.splice(1, 1)[0]!;
    await b.kill();
    // Placement moves b's actors to a; their state comes from the store.
    for (const [i, id] of ids.entries()) {
      await expect.poll(() => replica(0).host.proxy(CounterActor, id).value().catch(() => -1), { timeout: 30_000, interval: 250 }).toBe(i + 1);
    }
    await expect.poll(async () => (await reminded.firings().catch(() => [])).length, { timeout: 30_000, interval: 250 }).toBe(1);

    // b comes back: placement rebalances and sends deactivations for actors b2 never had.
    replicas.push(await startReplica(plane, "b2", setup, { clock: wallClock, logger: log.logger, subscribe: subscriber("b2") }));
    for (const [i, id] of ids.entries()) {
      await expect.poll(() => replica(1).host.proxy(CounterActor, id).add(0).catch(() => -1), { timeout: 30_000, interval: 250 }).toBe(i + 1);
    }
    expect(replica(0).daprd.process.exitCode).toBeNull();
    expect(replica(1).daprd.process.exitCode).toBeNull();
  }, 120_000);
});
