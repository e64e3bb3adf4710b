import { describe, expect, it } from "vitest";
import { KEPT_HOURLY_BARS, LiveCandleStore } from "../../../../src/feeds/live/live-candle-store.js";
import type { Candle } from "../../../../src/domain/signals/reading.js";

const H = 3_600_000;
const FOUR_H = 4 * H;

/** Consecutive hourly bars from `first`, with prices and volumes that differ from hour to hour. */
function hourlyBars(first: number, count: number): Candle[] {
  return Array.from({ length: count }, (_, i) => {
    const o = 100 + ((i * 37) % 23);
    const c = 100 + ((i * 53) % 29);
    return { t: first + i * H, o, h: Math.max(o, c) + (i % 5), l: Math.min(o, c) - (i % 3), c, v: 10 + (i % 7) };
  });
}

/** The 4-hour bar of four hourly bars, computed here from its definition. */
function fourHourBar(hours: readonly Candle[]): Candle {
  return {
    t: (hours[0] as Candle).t,
    o: (hours[0] as Candle).o,
    h: Math.max(...hours.map((b) => b.h)),
    l: Math.min(...hours.map((b) => b.l)),
    c: (hours[hours.length - 1] as Candle).c,
    v: hours.reduce((sum, b) => sum + b.v, 0),
  };
}

describe("LiveCandleStore's 4-hour bars across replicas", () => {
  // Starts one hour into a 4-hour bucket, so the newest 2,400 hours start mid-bucket too.
  const first = Date.UTC(2025, 0, 1, 1);
  const bars = hourlyBars(first, KEPT_HOURLY_BARS + 600);
  const now = (bars[bars.length - 1] as Candle).t + H + 60_000;

  it("serves the same 4-hour bars on a replica running for months and on one started from the shared log's 100 days", () => {
    const longRunning = new LiveCandleStore();
    for (let i = 0; i < bars.length; i += 24) longRunning.append(bars.slice(i, i + 24), (bars[Math.min(i + 24, bars.length) - 1] as Candle).t + H);
    const freshlyStarted = new LiveCandleStore();
    freshlyStarted.append(bars.slice(-KEPT_HOURLY_BARS), now);

    const served = freshlyStarted.candles("4h", now, 1000);
    expect(longRunning.candles("4h", now, 1000)).toEqual(served);
    // Only whole buckets of the kept hours: the window's first hour is mid-bucket, so 599 of 600.
    const kept = bars.slice(-KEPT_HOURLY_BARS);
    expect(served).toHaveLength(KEPT_HOURLY_BARS / 4 - 1);
    expect((served[0] as Candle).t).toBeGreaterThanOrEqual((kept[0] as Candle).t);
    for (const bar of served) {
      expect(bar.t % FOUR_H).toBe(0);
      expect(bar).toEqual(fourHourBar(bars.filter((b) => b.t >= bar.t && b.t < bar.t + FOUR_H)));
    }
    // Both hold the same 2,400 hourly bars.
    expect(longRunning.candles("1h", now, 3000)).toEqual(kept);
    expect(freshlyStarted.candles("1h", now, 3000)).toEqual(kept);
  });

  it("drops a 4-hour bar once its first hour leaves the kept window", () => {
    const store = new LiveCandleStore();
    store.append(bars.slice(0, KEPT_HOURLY_BARS), (bars[KEPT_HOURLY_BARS - 1] as Candle).t + H);
    const before = store.candles("4h", now, 1000);
    // Four more hours push the window past the start of the oldest whole bucket.
    const next = bars.slice(KEPT_HOURLY_BARS, KEPT_HOURLY_BARS + 4);
    store.append(next, (next[next.length - 1] as Candle).t + H);
    const oldestHour = (store.candles("1h", now, 3000)[0] as Candle).t;
    const after = store.candles("4h", now, 1000);
    expect((before[0] as Candle).t).toBeLessThan(oldestHour);
    expect(after[0]).toEqual(before[1]);
    expect(after.every((b) => b.t >= oldestHour)).toBe(true);
    // The bucket the new hours completed is the newest.
    const completed = (after[after.length - 1] as Candle).t;
    expect(completed).toBe((before[before.length - 1] as Candle).t + FOUR_H);
  });
});
