import { afterEach, describe, expect, it } from "vitest";
import { setTimeout as pause } from "node:timers/promises";
import { Actor } from "../../../src/runtime/actor.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { ReplayMarketClock } from "../../../src/runtime/clocks/market-clock.js";
import { warmUp } from "../../../src/composition/warm-up.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { createLogger } from "../../../src/logging/logger.js";
import { openSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../../src/store/store.js";

const T0 = Date.UTC(2026, 0, 1);
const H = 3_600_000;

/** What the two actors did, in order: a store the reader reads after the writer wrote. */
const board: string[] = [];

/** Writes at its hourly close, after a slow I/O (a store round trip). */
class CloseWriter extends Actor {
  static readonly actorType = "CloseWriter";
  async schedule(): Promise<void> {
    this.ctx.reminders.set("close", { dueAt: T0 + H, periodMs: H });
  }
  override async receiveReminder(): Promise<void> {
    await pause(20);
    board.push(`written ${this.ctx.clock.now() - T0}`);
  }
}

/** Reads 30 s after the close what the writer stored for it. */
class CloseReader extends Actor {
  static readonly actorType = "CloseReader";
  async schedule(): Promise<void> {
    this.ctx.reminders.set("read", { dueAt: T0 + H + 30_000, periodMs: H });
  }
  override async receiveReminder(): Promise<void> {
    board.push(`read after ${board.length} writes`);
  }
}

describe("runDue over a span of market time (a warm-up step)", () => {
  let store: Store | undefined;
  let host: LocalActorHost | undefined;
  afterEach(async () => {
    await host?.shutdown();
    await store?.close();
    board.length = 0;
  });

  it("fires reminders due at different times in their order, each time's turns over before the next's", async () => {
    store = openSqliteStore(":memory:");
    const clock = new ManualClock(T0);
    // The default poll (every 10 ms) runs, as in the warm-up: it must not fire the reader early.
    host = new LocalActorHost({ store: store.actorState, clock, logger: createLogger("silent") });
    host.register(CloseWriter);
    host.register(CloseReader);
    await host.start();
    await host.proxy(CloseReader, "r").schedule();
    await host.proxy(CloseWriter, "w").schedule();
    // One step over both due times, as the replay warm-up takes 5 market minutes at a time.
    clock.set(T0 + H + 5 * 60_000);
    await host.runDue();
    expect(board).toEqual([`written ${5 * 60_000 + H}`, "read after 1 writes"]);
  });
});

/** Records the market time of each of its firings. */
class SlotTurn extends Actor {
  static readonly actorType = "SlotTurn";
  async schedule(dueAt: number): Promise<void> {
    this.ctx.reminders.set("turn", { dueAt, periodMs: 5 * 60_000 });
  }
  override async receiveReminder(): Promise<void> {
    board.push(String(this.ctx.clock.now()));
  }
}

describe("the replay warm-up", () => {
  let store: Store | undefined;
  let host: LocalActorHost | undefined;
  afterEach(async () => {
    await host?.shutdown();
    await store?.close();
    board.length = 0;
  });

  it("steps on the schedules' 5-minute grid whatever minute and second it starts at, so a turn fires less than a period after its time", async () => {
    store = openSqliteStore(":memory:");
    const from = T0 + 2 * 60_000 + 17_000;
    const clock = new ReplayMarketClock(new ManualClock(0), from, 60, T0 + 10 * H, T0 + H);
    host = new LocalActorHost({ store: store.actorState, clock, logger: createLogger("silent") });
    host.register(SlotTurn);
    await host.start();
    // A verdict-like turn 30 s after each 5-minute slot.
    await host.proxy(SlotTurn, "v").schedule(T0 + 5 * 60_000 + 30_000);
    await warmUp(clock, host, T0 + H, createLogger("silent"), new AbortController().signal);
    const fired = board.map(Number);
    expect(fired.length).toBeGreaterThanOrEqual(10);
    for (const t of fired.slice(0, -1)) expect(t % (5 * 60_000)).toBe(0);
  });
});
