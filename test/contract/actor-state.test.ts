import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/store.js";
import type { OutboxRecord, ReminderClock, StoredReminder, TurnCommit } from "../../src/store/ports/actor-state.js";
import type { EventEnvelope } from "../../src/events/event-envelope.js";
import { freshMongoUrl } from "../support/mongo.js";
import { makeHost, T0 } from "../unit/runtime/fixtures/harness.js";
import { CounterActor, PublisherActor, ReminderActor } from "../unit/runtime/fixtures/sample-actors.js";

type Kind = "sqlite" | "mongodb";

function freshUrl(kind: Kind): string {
  if (kind === "mongodb") return freshMongoUrl("actors");
  return `sqlite:${join(mkdtempSync(join(tmpdir(), "actors-")), "mis.sqlite")}`;
}

function turn(over: Partial<TurnCommit> & Pick<TurnCommit, "actor">): TurnCommit {
  return { upserts: new Map(), deletes: new Set(), reminderUpserts: [], reminderDeletes: [], outbox: [], ...over };
}

function reminder(actorId: string, name: string, dueAt: number, periodMs: number | null = null, clock: ReminderClock = "market"): StoredReminder {
  return { actorType: "T", actorId, name, clock, dueAt, periodMs, payload: JSON.stringify({ name }) };
}

function outboxRecord(actorId: string, id: string, seq: number): OutboxRecord {
  return { id, seq, topic: "t.e", envelope: JSON.stringify({ id }), actorType: "T", actorId };
}

describe.each<Kind>(["sqlite", "mongodb"])("actor state store on %s", (kind) => {
  let url: string;
  let store: Store;
  beforeAll(async () => {
    url = freshUrl(kind);
    store = await openStore(url);
  });
  afterAll(async () => {
    await store.close();
  });

  it("commits state upserts and deletes and loads them per actor", async () => {
    const a = { type: "T", id: "a" };
    await store.actorState.commit(turn({ actor: a, upserts: new Map([["x", "1"], ["y", '"two"']]) }));
    await store.actorState.commit(turn({ actor: { type: "T", id: "b" }, upserts: new Map([["x", "9"]]) }));
    await store.actorState.commit(turn({ actor: a, upserts: new Map([["x", "3"]]), deletes: new Set(["y"]) }));
    expect(Object.fromEntries(await store.actorState.loadState(a))).toEqual({ x: "3" });
    expect(Object.fromEntries(await store.actorState.loadState({ type: "T", id: "b" }))).toEqual({ x: "9" });
    expect((await store.actorState.loadState({ type: "T", id: "none" })).size).toBe(0);
  });

  it("keeps keys, ids and reminder names with dots, dollars and percent signs intact", async () => {
    const odd = { type: "T", id: "a.b$c%2E" };
    await store.actorState.commit(
      turn({ actor: odd, upserts: new Map([["$k.e%y", "true"]]), reminderUpserts: [reminder("a.b$c%2E", "r.$%", T0)] }),
    );
    expect(Object.fromEntries(await store.actorState.loadState(odd))).toEqual({ "$k.e%y": "true" });
    expect((await store.actorState.loadReminders()).find((r) => r.actorId === "a.b$c%2E")).toEqual(reminder("a.b$c%2E", "r.$%", T0));
    await store.actorState.commit(turn({ actor: odd, deletes: new Set(["$k.e%y"]), reminderDeletes: ["r.$%"] }));
    expect((await store.actorState.loadState(odd)).size).toBe(0);
    expect((await store.actorState.loadReminders()).find((r) => r.actorId === "a.b$c%2E")).toBeUndefined();
  });

  it("stores, replaces and deletes reminders", async () => {
    const r = { type: "T", id: "r" };
    await store.actorState.commit(turn({ actor: r, reminderUpserts: [reminder("r", "one", T0), reminder("r", "two", T0 + 5, 100)] }));
    await store.actorState.commit(turn({ actor: r, reminderUpserts: [reminder("r", "one", T0 + 50)], reminderDeletes: ["two"] }));
    const mine = (await store.actorState.loadReminders()).filter((x) => x.actorId === "r");
    expect(mine).toEqual([reminder("r", "one", T0 + 50)]);
  });

  it("keeps each reminder's clock, also when a reminder moves to the other clock", async () => {
    const c = { type: "T", id: "clocks" };
    await store.actorState.commit(turn({ actor: c, reminderUpserts: [reminder("clocks", "retry", T0, null, "wall"), reminder("clocks", "tick", T0, 60_000)] }));
    let mine = (await store.actorState.loadReminders()).filter((x) => x.actorId === "clocks");
    expect(mine.sort((x, y) => x.name.localeCompare(y.name))).toEqual([reminder("clocks", "retry", T0, null, "wall"), reminder("clocks", "tick", T0, 60_000)]);
    await store.actorState.commit(turn({ actor: c, reminderUpserts: [reminder("clocks", "retry", T0 + 5, null, "market")] }));
    mine = (await store.actorState.loadReminders()).filter((x) => x.actorId === "clocks" && x.name === "retry");
    expect(mine).toEqual([reminder("clocks", "retry", T0 + 5, null, "market")]);
  });

  it("keeps outbox records pending until delivered, oldest first, paged by emission; acknowledging twice is harmless", async () => {
    await store.actorState.commit(turn({ actor: { type: "T", id: "o1" }, outbox: [outboxRecord("o1", "e2", 2), outboxRecord("o1", "e3", 3)] }));
    await store.actorState.commit(turn({ actor: { type: "T", id: "o2" }, outbox: [outboxRecord("o2", "e1", 1)] }));
    const pending = await store.actorOutbox.pending(10);
    expect(pending.map((p) => p.id)).toEqual(["e1", "e2", "e3"]);
    expect(pending[0]).toEqual(outboxRecord("o2", "e1", 1));
    expect((await store.actorOutbox.pending(2)).map((p) => p.id)).toEqual(["e1", "e2"]);
    // Paging past records a reader holds back: only what was emitted after the given one.
    expect((await store.actorOutbox.pending(10, 1)).map((p) => p.id)).toEqual(["e2", "e3"]);
    expect((await store.actorOutbox.pending(1, 2)).map((p) => p.id)).toEqual(["e3"]);
    expect(await store.actorOutbox.pending(10, 3)).toEqual([]);
    await store.actorOutbox.markDelivered(pending.slice(0, 2));
    await store.actorOutbox.markDelivered(pending.slice(0, 2));
    expect((await store.actorOutbox.pending(10)).map((p) => p.id)).toEqual(["e3"]);
    await store.actorOutbox.markDelivered(pending);
    expect(await store.actorOutbox.pending(10)).toEqual([]);
  });

  it("keeps state and reminders across a restart of the host; a missed reminder fires once", async () => {
    const first = makeHost(store);
    await first.host.start();
    await first.host.proxy(CounterActor, "restart").add(41);
    await first.host.proxy(ReminderActor, "restart").schedule({ name: "tick", dueInMs: 1000, periodMs: 1000, payload: { p: 1 } });
    await first.host.shutdown();
    await store.close();

    store = await openStore(url);
    const clock = first.clock;
    clock.advance(5500);
    const second = makeHost(store, { clock });
    await second.host.start();
    await second.host.runDue();
    const reminded = second.host.proxy(ReminderActor, "restart");
    expect(await reminded.firings()).toEqual([{ name: "tick", at: T0 + 5500, payload: { p: 1 } }]);
    expect(await second.host.proxy(CounterActor, "restart").add(1)).toBe(42);
    clock.advance(500);
    await second.host.runDue();
    expect((await reminded.firings()).map((f) => f.at)).toEqual([T0 + 5500, T0 + 6000]);
    await second.host.shutdown();
  });

  it("rolls back a failed turn", async () => {
    const h = makeHost(store);
    await h.host.start();
    const counter = h.host.proxy(CounterActor, "rollback");
    await counter.add(2);
    await expect(counter.addThenFail(5)).rejects.toThrow();
    await h.host.shutdown();
    expect(Object.fromEntries(await store.actorState.loadState({ type: "Counter", id: "rollback" }))).toEqual({ n: "2" });
    expect((await store.actorState.loadReminders()).filter((r) => r.actorId === "rollback")).toEqual([]);
  });

  it("delivers an event committed right before a crash after the restart", async () => {
    const crashed = makeHost(store, { dispatch: false });
    await crashed.host.start();
    const id = await crashed.host.proxy(PublisherActor, "crash").emit({ n: 1 });
    // No shutdown: the process is gone with the event only in the outbox.
    const restarted = makeHost(store);
    const received: EventEnvelope[] = [];
    restarted.bus.subscribe("test.event", async (e) => {
      received.push(e);
    });
    await restarted.host.start();
    await expect.poll(() => received.map((e) => e.id), { timeout: 10_000, interval: 10 }).toContain(id);
    await restarted.host.shutdown();
    expect((await store.actorOutbox.pending(100)).map((p) => p.id)).not.toContain(id);
  });
});
