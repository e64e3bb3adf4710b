import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OutboxDispatcher } from "../../../src/events/outbox-dispatcher.js";
import { InProcessEventBus } from "../../../src/events/in-process-bus.js";
import type { EventEnvelope } from "../../../src/events/event-envelope.js";
import type { OutboxRecord } from "../../../src/store/ports/actor-state.js";
import { openSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../../src/store/store.js";
import { metricsRegistry } from "../../../src/observability/metrics.js";
import { captureLogger } from "../../support/capture-logger.js";
import { waitFor } from "../../support/wait-for.js";
import { logContextFields, runInRequest } from "../../../src/logging/log-context.js";
import { makeHost } from "./fixtures/harness.js";
import { CounterActor } from "./fixtures/sample-actors.js";

function record(id: string, seq: number): OutboxRecord {
  const envelope: EventEnvelope = { id, event: "t.e", timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, seq)).toISOString(), data: { seq } };
  return { id, seq, topic: "t.e", envelope: JSON.stringify(envelope), actorType: "T", actorId: "a" };
}

/** A turn of actor T/a that committed these events and nothing else. */
async function commitEvents(store: Store, outbox: OutboxRecord[]): Promise<void> {
  await store.actorState.commit({ actor: { type: "T", id: "a" }, upserts: new Map(), deletes: new Set(), reminderUpserts: [], reminderDeletes: [], outbox });
}

describe("outbox dispatcher", () => {
  let store: Store;
  beforeEach(() => {
    store = openSqliteStore(":memory:");
  });
  afterEach(async () => {
    await store.close();
  });

  it("holds back an event a subscriber refused, delivers the later ones meanwhile, and the held one on a later attempt", async () => {
    await commitEvents(store, [record("e1", 1), record("e2", 2), record("e3", 3)]);
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    let refuse = true;
    bus.subscribe("t.e", async (e) => {
      if (e.id === "e2" && refuse) throw new Error("receiver down");
      seen.push(e.id);
    });
    const log = captureLogger();
    const dispatcher = new OutboxDispatcher(store.actorOutbox, bus, log.logger, 20);
    await dispatcher.flush();
    expect(seen).toEqual(["e1", "e3"]);
    expect((await store.actorOutbox.pending(10)).map((r) => r.id)).toEqual(["e2"]);
    expect(log.lines.filter((l) => l.msg === "outbox delivery failed; will retry").map((l) => [l.event_id, l.topic, l.failures])).toEqual([["e2", "t.e", 1]]);
    refuse = false;
    dispatcher.start();
    await waitFor(async () => seen.includes("e2"), 5_000, "the held event on a later attempt");
    await dispatcher.stop();
    expect(seen).toEqual(["e1", "e3", "e2"]);
    expect(await store.actorOutbox.pending(10)).toEqual([]);
  });

  it("waits twice as long after each refusal of the same event (1, 2, 4 … intervals, at most 60)", async () => {
    await commitEvents(store, [record("e1", 1)]);
    const bus = new InProcessEventBus();
    bus.subscribe("t.e", () => Promise.reject(new Error("receiver down")));
    const log = captureLogger();
    const dispatcher = new OutboxDispatcher(store.actorOutbox, bus, log.logger, 5);
    dispatcher.start();
    const retries = async () => log.lines.filter((l) => l.msg === "outbox delivery failed; will retry").map((l) => l.retry_in_ms);
    await waitFor(async () => (await retries()).length >= 5, 5_000, "five refusals");
    await dispatcher.stop();
    expect((await retries()).slice(0, 5)).toEqual([5, 10, 20, 40, 80]);
    expect((await store.actorOutbox.pending(10)).map((r) => r.id)).toEqual(["e1"]);
  });

  it("keeps an unreadable record in the outbox without logging its content, and delivers the events after it", async () => {
    await commitEvents(store, [{ ...record("broken", 1), envelope: '{"note":"alice@example.org", truncated' }, record("e2", 2)]);
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    bus.subscribe("t.e", async (e) => {
      seen.push(e.id);
    });
    const log = captureLogger();
    const dispatcher = new OutboxDispatcher(store.actorOutbox, bus, log.logger, 60_000);
    await dispatcher.flush();
    expect(seen).toEqual(["e2"]);
    expect((await store.actorOutbox.pending(10)).map((r) => r.id)).toEqual(["broken"]);
    const unreadable = log.lines.filter((l) => l.msg === "outbox event unreadable: kept, later events go on");
    expect(unreadable.map((l) => [l.level, l.event_id, l.topic])).toEqual([[50, "broken", "t.e"]]);
    expect(JSON.stringify(log.lines)).not.toContain("alice@example.org");
    await dispatcher.stop();
  });

  it("pages past a full batch of held records to the events behind them", async () => {
    const refused = Array.from({ length: 150 }, (_, i) => record(`bad-${i}`, i + 1));
    await commitEvents(store, [...refused, record("good", 1_000)]);
    const bus = new InProcessEventBus();
    const seen: string[] = [];
    bus.subscribe("t.e", async (e) => {
      if (e.id.startsWith("bad-")) throw new Error("receiver down");
      seen.push(e.id);
    });
    const dispatcher = new OutboxDispatcher(store.actorOutbox, bus, captureLogger().logger, 60_000);
    await dispatcher.flush();
    // A second pass while all 150 are held still reaches past them.
    await commitEvents(store, [record("later", 2_000)]);
    await dispatcher.flush();
    expect(seen).toEqual(["good", "later"]);
    expect(await store.actorOutbox.pending(200)).toHaveLength(150);
    await dispatcher.stop();
  });

  it("delivers as nobody's request, though a request's turn kicked it: the loop carries every pending event", async () => {
    await commitEvents(store, [record("e1", 1), record("e2", 2)]);
    const bus = new InProcessEventBus();
    const contexts: unknown[] = [];
    bus.subscribe("t.e", async () => {
      contexts.push(logContextFields().req_id ?? "none");
    });
    const dispatcher = new OutboxDispatcher(store.actorOutbox, bus, captureLogger().logger, 60_000);
    runInRequest("req-that-committed-e2", () => dispatcher.kick());
    await dispatcher.stop();
    expect(contexts).toEqual(["none", "none"]);
  });
});

describe("runtime metrics", () => {
  it("counts turns, failures and active actors per type", async () => {
    const store = openSqliteStore(":memory:");
    const h = makeHost(store);
    await h.host.start();
    const counter = h.host.proxy(CounterActor, "metrics");
    await counter.add(1);
    await expect(counter.addThenFail(1)).rejects.toThrow();
    const text = await metricsRegistry.metrics();
    expect(text).toMatch(/mis_actor_turns_total\{type="Counter",outcome="ok"\} \d+/);
    expect(text).toMatch(/mis_actor_failed_turns_total\{type="Counter"\} [1-9]/);
    expect(text).toMatch(/mis_actor_active\{type="Counter"\} [1-9]/);
    expect(text).toContain("mis_actor_turn_duration_seconds_bucket");
    await h.host.shutdown();
    await store.close();
  });
});
