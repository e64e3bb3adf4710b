import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { STAMP_SLOTS } from "../../../src/events/event-stamps.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../../src/store/store.js";
import type { EventEnvelope } from "../../../src/events/event-envelope.js";
import { ActorHostStoppedError, HostStoppingError } from "../../../src/runtime/actor-host.js";
import { makeHost, T0, type Harness } from "./fixtures/harness.js";
import { CounterActor, LifecycleActor, PublisherActor, ReminderActor } from "./fixtures/sample-actors.js";

function tempDbPath(): string {
  return join(mkdtempSync(join(tmpdir(), "actors-")), "mis.sqlite");
}

/** Lets queued microtasks and I/O callbacks run, without measuring any time. */
async function spin(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

describe("local actor host on SQLite", () => {
  let store: Store;
  let h: Harness;

  beforeEach(async () => {
    store = openSqliteStore(":memory:");
    h = makeHost(store);
    await h.host.start();
  });

  afterEach(async () => {
    h.release();
    await h.host.shutdown();
    await store.close();
  });

  it("runs 1,000 concurrent calls to one actor one at a time, in arrival order", async () => {
    const counter = h.host.proxy(CounterActor, "c1");
    const results = await Promise.all(Array.from({ length: 1000 }, () => counter.add(1)));
    expect(results).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(await counter.value()).toBe(1000);
    expect(Object.fromEntries(await store.actorState.loadState({ type: "Counter", id: "c1" }))).toEqual({ n: "1000" });
  });

  it("runs different actors independently and keeps their state apart", async () => {
    const calls = [];
    for (let i = 0; i < 100; i++) calls.push(h.host.proxy(CounterActor, `a${i % 10}`).add(1));
    await Promise.all(calls);
    for (let i = 0; i < 10; i++) expect(await h.host.proxy(CounterActor, `a${i}`).value()).toBe(10);
  });

  it("rolls back every change of a failed turn and logs it with the actor id", async () => {
    const counter = h.host.proxy(CounterActor, "r1");
    await counter.add(5);
    await expect(counter.addThenFail(3)).rejects.toThrow("boom after writing");
    expect(await counter.value()).toBe(5);
    expect(Object.fromEntries(await store.actorState.loadState({ type: "Counter", id: "r1" }))).toEqual({ n: "5" });
    expect(await store.actorState.loadReminders()).toEqual([]);
    expect(await store.actorOutbox.pending(10)).toEqual([]);
    const failure = h.log.lines.find((l) => l.msg === "actor turn failed; its changes were rolled back");
    expect(failure).toMatchObject({ level: 50, actorType: "Counter", actorId: "r1", turn: "addThenFail" });
    // The actor stays usable after a failure.
    expect(await counter.add(1)).toBe(6);
  });

  it("deletes state keys durably", async () => {
    const counter = h.host.proxy(CounterActor, "d1");
    await counter.add(2);
    await counter.clear();
    expect(await counter.value()).toBe(0);
    expect((await store.actorState.loadState({ type: "Counter", id: "d1" })).size).toBe(0);
  });

  it("passes arguments and results through JSON, as Dapr would", async () => {
    const counter = h.host.proxy(CounterActor, "j1");
    expect(await counter.echo({ a: [1, "x", null], b: { c: true } })).toEqual({ a: [1, "x", null], b: { c: true } });
    const withDate = { when: new Date(T0) } as unknown as Parameters<typeof counter.echo>[0];
    expect(await counter.echo(withDate)).toEqual({ when: new Date(T0).toISOString() });
  });

  it("refuses methods that are not actor methods", async () => {
    const counter = h.host.proxy(CounterActor, "m1") as unknown as Record<string, unknown>;
    expect(counter.onActivate).toBeUndefined();
    expect(counter.receiveReminder).toBeUndefined();
    expect(typeof counter.add).toBe("function");
  });

  it("fires a reminder at its due time and then on its period", async () => {
    const actor = h.host.proxy(ReminderActor, "p1");
    await actor.schedule({ name: "every", dueInMs: 1000, periodMs: 500, payload: { k: 1 } });
    h.clock.advance(999);
    await h.host.runDue();
    expect(await actor.firings()).toEqual([]);
    h.clock.advance(1);
    await h.host.runDue();
    h.clock.advance(500);
    await h.host.runDue();
    expect(await actor.firings()).toEqual([
      { name: "every", at: T0 + 1000, payload: { k: 1 } },
      { name: "every", at: T0 + 1500, payload: { k: 1 } },
    ]);
    const [stored] = await store.actorState.loadReminders();
    expect(stored).toMatchObject({ name: "every", dueAt: T0 + 2000, periodMs: 500 });
  });

  it("coalesces missed periods into one firing and stays on the period's grid", async () => {
    const actor = h.host.proxy(ReminderActor, "p2");
    await actor.schedule({ name: "grid", dueInMs: 100, periodMs: 100 });
    h.clock.advance(1050);
    await h.host.runDue();
    expect((await actor.firings()).map((f) => f.at)).toEqual([T0 + 1050]);
    h.clock.advance(49);
    await h.host.runDue();
    expect(await actor.firings()).toHaveLength(1);
    h.clock.advance(1);
    await h.host.runDue();
    expect((await actor.firings()).map((f) => f.at)).toEqual([T0 + 1050, T0 + 1100]);
  });

  it("fires a one-shot reminder once and forgets it; a cancelled one never fires", async () => {
    const actor = h.host.proxy(ReminderActor, "o1");
    await actor.schedule({ name: "once", dueInMs: 10 });
    await actor.schedule({ name: "cancelled", dueInMs: 10 });
    await actor.cancel("cancelled");
    h.clock.advance(10);
    await h.host.runDue();
    h.clock.advance(1000);
    await h.host.runDue();
    expect((await actor.firings()).map((f) => f.name)).toEqual(["once"]);
    expect(await store.actorState.loadReminders()).toEqual([]);
  });

  it("rolls back a failing reminder's turn but keeps its period", async () => {
    const actor = h.host.proxy(ReminderActor, "f1");
    await actor.schedule({ name: "flaky", dueInMs: 100, periodMs: 100 });
    await actor.failing(true);
    h.clock.advance(100);
    await h.host.runDue();
    // The firing's state change is rolled back ...
    expect(await actor.firings()).toEqual([]);
    // ... and it does not fire again before its next period.
    await h.host.runDue();
    expect(h.log.lines.filter((l) => l.turn === "reminder flaky")).toHaveLength(1);
    const [stored] = await store.actorState.loadReminders();
    expect(stored).toMatchObject({ dueAt: T0 + 200, periodMs: 100 });
    await actor.failing(false);
    h.clock.advance(100);
    await h.host.runDue();
    expect((await actor.firings()).map((f) => f.at)).toEqual([T0 + 200]);
    expect(h.log.lines.find((l) => l.turn === "reminder flaky")).toMatchObject({ actorType: "Reminded", actorId: "f1" });
  });

  it("fires a one-shot reminder whose turn failed again 30 s later, not at once and not never", async () => {
    const actor = h.host.proxy(ReminderActor, "f2");
    await actor.schedule({ name: "retry", dueInMs: 100 });
    await actor.failing(true);
    h.clock.advance(100);
    await h.host.runDue();
    expect(await actor.firings()).toEqual([]);
    expect(await store.actorState.loadReminders()).toMatchObject([{ name: "retry", dueAt: T0 + 100 + 30_000, periodMs: null }]);
    h.clock.advance(29_999);
    await h.host.runDue();
    expect(h.log.lines.filter((l) => l.turn === "reminder retry")).toHaveLength(1);
    await actor.failing(false);
    h.clock.advance(1);
    await h.host.runDue();
    expect((await actor.firings()).map((f) => f.at)).toEqual([T0 + 100 + 30_000]);
    expect(await store.actorState.loadReminders()).toEqual([]);
  });

  it("fires reminders by itself when polling, on the host clock", async () => {
    const polling = makeHost(store, { pollIntervalMs: 2 });
    // Every poll reads the host clock: counting the reads shows when the host has looked.
    let reads = 0;
    const read = polling.clock.now.bind(polling.clock);
    polling.clock.now = () => {
      reads++;
      return read();
    };
    await polling.host.start();
    try {
      const actor = polling.host.proxy(ReminderActor, "auto");
      await actor.schedule({ name: "auto", dueInMs: 60_000 });
      // Several polls after scheduling, before the due time: none fired it.
      const scheduledAt = reads;
      await expect.poll(() => reads, { timeout: 5000, interval: 5 }).toBeGreaterThanOrEqual(scheduledAt + 3);
      expect(await actor.firings()).toEqual([]);
      polling.clock.advance(60_000);
      await expect.poll(async () => (await actor.firings()).length, { timeout: 5000, interval: 5 }).toBe(1);
    } finally {
      await polling.host.shutdown();
    }
  });

  it("deactivates idle actors and re-activates them with their state", async () => {
    const idle = makeHost(store, { idleTimeoutMs: 1000 });
    await idle.host.start();
    try {
      const actor = idle.host.proxy(LifecycleActor, "l1");
      expect(await actor.touch()).toBe(1);
      idle.clock.advance(999);
      await idle.host.runDue();
      expect(idle.host.activeCount).toBe(1);
      idle.clock.advance(1);
      await idle.host.runDue();
      expect(idle.host.activeCount).toBe(0);
      expect(idle.journal).toEqual(["activate l1 #1", "deactivate l1"]);
      expect(await actor.touch()).toBe(2);
      expect(idle.journal).toEqual(["activate l1 #1", "deactivate l1", "activate l1 #2"]);
    } finally {
      await idle.host.shutdown();
    }
  });

  it("keeps one activation per id however many calls race to activate it", async () => {
    const actor = h.host.proxy(LifecycleActor, "single");
    await Promise.all(Array.from({ length: 50 }, () => actor.touch()));
    expect(h.journal).toEqual(["activate single #1"]);
    expect(h.host.activeCount).toBe(1);
  });

  it("runs timers as turns and drops them with the activation", async () => {
    const idle = makeHost(store, { idleTimeoutMs: 10_000 });
    await idle.host.start();
    try {
      const actor = idle.host.proxy(LifecycleActor, "t1");
      await actor.startTicking(100);
      idle.clock.advance(100);
      await idle.host.runDue();
      idle.clock.advance(100);
      await idle.host.runDue();
      expect(await actor.ticks()).toBe(2);
      await actor.stopTicking();
      idle.clock.advance(100);
      await idle.host.runDue();
      expect(await actor.ticks()).toBe(2);
      await actor.startTicking(100);
      // Timer turns count as activity; with the timer stopped the actor goes idle.
      await actor.stopTicking();
      idle.clock.advance(10_000);
      await idle.host.runDue();
      expect(idle.host.activeCount).toBe(0);
      idle.clock.advance(100);
      await idle.host.runDue();
      expect(idle.journal.filter((l) => l.startsWith("tick"))).toEqual(["tick t1 1", "tick t1 2"]);
    } finally {
      await idle.host.shutdown();
    }
  });

  it("hands a published event to the bus after the turn commits, with unique timestamps", async () => {
    const received: EventEnvelope[] = [];
    h.bus.subscribe("test.event", async (e) => {
      received.push(e);
    });
    const publisher = h.host.proxy(PublisherActor, "pub");
    const ids = [await publisher.emit({ n: 1 }), await publisher.emit({ n: 2 })];
    await expect.poll(() => received.length, { timeout: 5000, interval: 5 }).toBe(2);
    expect(received.map((e) => e.id)).toEqual(ids);
    expect(received.map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
    // Both were emitted at the same clock instant: each takes its publisher's slot (event-stamps.ts),
    // the second the next instant of that slot.
    const stamps = received.map((e) => Date.parse(e.timestamp));
    expect(stamps[0]! - T0).toBeGreaterThanOrEqual(0);
    expect(stamps[0]! - T0).toBeLessThan(STAMP_SLOTS);
    expect(stamps[1]! - stamps[0]!).toBe(STAMP_SLOTS);
    await expect.poll(async () => (await store.actorOutbox.pending(10)).length).toBe(0);
  });

  it("shutdown lets a long turn finish, commits it, then refuses calls", async () => {
    const publisher = h.host.proxy(PublisherActor, "long");
    const slow = publisher.slow();
    let stopped = false;
    const stopping = h.host.shutdown().then(() => {
      stopped = true;
    });
    await spin();
    expect(stopped).toBe(false);
    h.release();
    await slow;
    await stopping;
    expect(Object.fromEntries(await store.actorState.loadState({ type: "Publisher", id: "long" }))).toEqual({ slow: '"done"' });
    await expect(publisher.sent()).rejects.toBeInstanceOf(ActorHostStoppedError);
  });

  it("shutdown within a caller's budget gives up on a turn that ignores stopping, which commits nothing", async () => {
    const publisher = h.host.proxy(PublisherActor, "stuck");
    const slow = publisher.slow();
    await spin();
    // The service's 10 s stop hands the host what is left of it; the host's own limit is longer.
    await h.host.shutdown(50);
    expect(h.log.lines.some((l) => l.msg === "actor host shutdown timed out with turns still running")).toBe(true);
    expect(Object.fromEntries(await store.actorState.loadState({ type: "Publisher", id: "stuck" }))).toEqual({});
    h.release();
    await slow.catch(() => undefined);
  });

  it("shutdown tells a long turn that checks ctx.stopping to give up: it rolls back and the host stops", async () => {
    const counter = h.host.proxy(CounterActor, "catch-up");
    await counter.add(2);
    const long = counter.addUntilStopped();
    await spin();
    await h.host.shutdown();
    await expect(long).rejects.toThrow(HostStoppingError);
    expect(Object.fromEntries(await store.actorState.loadState({ type: "Counter", id: "catch-up" }))).toEqual({ n: "2" });
    expect(h.log.lines.some((l) => String(l.msg).startsWith("turn gave up: the host is stopping"))).toBe(true);
  });
});

describe("local actor host across restarts on one SQLite file", () => {
  it("keeps state and reminders; a reminder due while down fires once after start-up", async () => {
    const path = tempDbPath();
    const first = openSqliteStore(path);
    const a = makeHost(first);
    await a.host.start();
    await a.host.proxy(CounterActor, "k").add(7);
    await a.host.proxy(ReminderActor, "k").schedule({ name: "hourly", dueInMs: 3_600_000, periodMs: 3_600_000, payload: "p" });
    await a.host.shutdown();
    await first.close();

    const second = openSqliteStore(path);
    const clock = a.clock;
    // Down for three and a half hours: three firings were missed.
    clock.advance(3.5 * 3_600_000);
    const b = makeHost(second, { clock });
    await b.host.start();
    await b.host.runDue();
    await b.host.runDue();
    const reminded = b.host.proxy(ReminderActor, "k");
    expect(await reminded.firings()).toEqual([{ name: "hourly", at: T0 + 3.5 * 3_600_000, payload: "p" }]);
    expect(await b.host.proxy(CounterActor, "k").value()).toBe(7);
    clock.advance(0.5 * 3_600_000);
    await b.host.runDue();
    expect((await reminded.firings()).map((f) => f.at)).toEqual([T0 + 3.5 * 3_600_000, T0 + 4 * 3_600_000]);
    await b.host.shutdown();
    await second.close();
  });

  it("delivers an event whose turn committed right before a crash", async () => {
    const path = tempDbPath();
    const first = openSqliteStore(path);
    // No dispatcher: the process "dies" after the commit, before anything reached the bus.
    const crashed = makeHost(first, { dispatch: false });
    await crashed.host.start();
    const id = await crashed.host.proxy(PublisherActor, "x").emit({ important: true });
    await first.close();

    const second = openSqliteStore(path);
    const restarted = makeHost(second);
    const received: EventEnvelope[] = [];
    restarted.bus.subscribe("test.event", async (e) => {
      received.push(e);
    });
    await restarted.host.start();
    await expect.poll(() => received.length, { timeout: 5000, interval: 5 }).toBe(1);
    expect(received[0]).toMatchObject({ id, event: "test.event", data: { important: true } });
    await restarted.host.shutdown();
    expect(await second.actorOutbox.pending(10)).toEqual([]);
    await second.close();
  });
});
