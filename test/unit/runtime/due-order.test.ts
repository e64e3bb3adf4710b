import { afterEach, describe, expect, it } from "vitest";
import { setTimeout as pause } from "node:timers/promises";
import { Actor } from "../../../src/runtime/actor.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
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
    host = new LocalActorHost({ store: store.actorState, clock, logger: createLogger("silent"), pollIntervalMs: 0 });
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
