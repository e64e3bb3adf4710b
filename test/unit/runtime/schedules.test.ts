import { describe, expect, it } from "vitest";
import { DueQueue } from "../../../src/runtime/due-queue.js";
import { nextDueAfter } from "../../../src/runtime/next-due.js";
import { nextStamp, STAMP_SLOTS, stampSlot } from "../../../src/events/event-stamps.js";

describe("DueQueue", () => {
  it("hands out due keys earliest first, ties in scheduling order", () => {
    const q = new DueQueue<string>();
    q.schedule("c", 30);
    q.schedule("a", 10);
    q.schedule("b", 10);
    q.schedule("d", 40);
    expect(q.takeDue(5)).toEqual([]);
    expect(q.takeDue(30).map((e) => e.key)).toEqual(["a", "b", "c"]);
    expect(q.peek()).toBe(40);
    expect(q.size).toBe(1);
  });

  it("reschedules and cancels without returning stale entries", () => {
    const q = new DueQueue<string>();
    q.schedule("a", 10);
    q.schedule("a", 50);
    q.schedule("b", 20);
    q.cancel("b");
    expect(q.takeDue(30)).toEqual([]);
    expect(q.takeDue(50)).toEqual([{ key: "a", dueAt: 50 }]);
    expect(q.peek()).toBeUndefined();
  });

  it("stays ordered through many reschedules (heap rebuilds)", () => {
    const q = new DueQueue<number>();
    for (let round = 0; round < 20; round++) for (let k = 0; k < 100; k++) q.schedule(k, 1000 - k + round);
    const due = q.takeDue(Number.MAX_SAFE_INTEGER);
    expect(due).toHaveLength(100);
    expect(due.map((e) => e.dueAt)).toEqual([...due.map((e) => e.dueAt)].sort((x, y) => x - y));
    expect(due[0]).toEqual({ key: 99, dueAt: 920 });
  });
});

describe("nextDueAfter", () => {
  it("keeps a future due time", () => {
    expect(nextDueAfter(100, 10, 50)).toBe(100);
  });
  it("moves to the first grid point after now, however many periods were missed", () => {
    expect(nextDueAfter(100, 10, 100)).toBe(110);
    expect(nextDueAfter(100, 10, 155)).toBe(160);
    expect(nextDueAfter(100, 10, 160)).toBe(170);
  });
});

describe("event stamps", () => {
  it("never repeat within one publisher and never go back", () => {
    const slot = stampSlot("BTC");
    let last: number | undefined;
    const seen: number[] = [];
    for (const at of [1000, 1000, 999, 5000, 5000]) {
      last = nextStamp(last, at, slot);
      seen.push(last);
    }
    for (let i = 1; i < seen.length; i++) expect(seen[i]!).toBeGreaterThan(seen[i - 1]!);
    for (const s of seen) expect(s % STAMP_SLOTS).toBe(slot);
    expect(seen[3]! - 5000).toBeLessThan(STAMP_SLOTS);
  });

  it("never collide between publishers of one event type, whatever their instants", () => {
    const ids = ["BTC", "ETH", "SOL", "TAO", "market"];
    expect(new Set(ids.map(stampSlot)).size).toBe(ids.length);
    // Every publisher emitting at the same instants, on different replicas (no shared memory).
    const all = ids.flatMap((id) => {
      let last: number | undefined;
      return [7_000, 7_000, 7_001, 7_003].map((at) => (last = nextStamp(last, at, stampSlot(id))));
    });
    expect(new Set(all).size).toBe(all.length);
  });
});
