import { describe, expect, it } from "vitest";
import { LiveFeedSync, LogPublisher } from "../../../../src/feeds/live/feed-sync.js";
import { readingObservation, type DecodedObservation } from "../../../../src/feeds/live/observation-codec.js";
import { ManualClock } from "../../../../src/runtime/clocks/clock.js";
import { openSqlite } from "../../../../src/store/sqlite/database.js";
import { SqliteLiveObservations, liveObservationMigrations } from "../../../../src/store/sqlite/live-observations.js";
import { applyMigrations } from "../../../../src/store/sqlite/migrate.js";

const T0 = Date.parse("2026-03-23T12:00:00Z");
const MINUTE = 60_000;

describe("LiveFeedSync over the store's observation log (SQLite)", () => {
  it("a row written by a replica whose clock ran an hour ahead does not make the others skip what correct clocks write after it", async () => {
    const db = openSqlite(":memory:");
    applyMigrations(db, liveObservationMigrations);
    const log = new SqliteLiveObservations(db);
    const wall = new ManualClock(T0);
    const ahead = new ManualClock(T0);
    const warnings: string[] = [];
    const warn = (message: string) => warnings.push(message);
    const fast = new LogPublisher(log, ahead, warn);
    const correct = new LogPublisher(log, wall, warn);
    const applied: number[] = [];
    const reader = new LiveFeedSync(log, { apply: (items: readonly DecodedObservation[]) => items.forEach((i) => i.kind === "reading" && applied.push(i.reading.value)) }, wall, warn);
    const reading = (value: number) => readingObservation({ key: "FEAR_GREED_INDEX", value, observedAt: T0 + value * MINUTE, source: "alternative.me" });

    await correct.publish([reading(1)]);
    await reader.pull();
    // Replica A's clock steps an hour ahead for one write (a VM resumed, NTP stepping), then is corrected.
    ahead.set(T0 + 60 * MINUTE);
    await fast.publish([reading(2)]);
    for (let v = 3; v <= 6; v++) {
      wall.advance(MINUTE);
      ahead.set(wall.now());
      await (v % 2 === 1 ? fast : correct).publish([reading(v)]);
      await reader.pull();
    }
    // Every row reached the reader (the early-stamped one again at each pull until its time comes).
    expect(new Set(applied)).toEqual(new Set([1, 2, 3, 4, 5, 6]));
    expect(warnings).toEqual([]);
    db.close();
  });
});
