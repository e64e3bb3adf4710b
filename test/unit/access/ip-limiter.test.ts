import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IpLimiter, MAX_SLIDING_WINDOW_MS } from "../../../src/application/ip-limiter.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { openSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import type { Store } from "../../../src/store/store.js";

describe("per-address limits", () => {
  let store: Store;
  beforeEach(() => {
    store = openSqliteStore(":memory:");
  });
  afterEach(async () => {
    await store.close();
  });

  it("refuses a sliding window longer than the store's sweep keeps, rather than count from a log it prunes", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 10));
    const limiter = new IpLimiter(store.counters, store.slidingWindows, clock);
    const longest = { name: "day", limit: 1, windowSeconds: MAX_SLIDING_WINDOW_MS / 1000, sliding: true };
    expect(await limiter.hit(longest, "203.0.113.7")).toEqual({ allowed: true });
    // The store sweeps hits older than the longest window; one still inside it is kept.
    clock.set(clock.now() + MAX_SLIDING_WINDOW_MS - 60_000);
    await store.slidingWindows.sweepBefore(clock.now() - MAX_SLIDING_WINDOW_MS);
    expect(await limiter.hit(longest, "203.0.113.7")).toEqual({ allowed: false, retryAfterSeconds: 60 });
    await expect(limiter.hit({ ...longest, name: "two-days", windowSeconds: 2 * 86_400 }, "203.0.113.7")).rejects.toThrow(/window over/);
  });
});
