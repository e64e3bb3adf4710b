import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../../src/runtime/clocks/clock.js";
import { LiveMarketClock, ReplayMarketClock } from "../../../../src/runtime/clocks/market-clock.js";

const H = 3_600_000;

describe("market clocks", () => {
  it("live market time is wall time", () => {
    const wall = new ManualClock(1_000);
    const clock = new LiveMarketClock(wall);
    wall.advance(5_000);
    expect(clock.now()).toBe(6_000);
    expect(clock.warmingUp).toBe(false);
  });

  it("replay holds still during warm-up and moves only when fast-forwarded, never backwards", () => {
    const wall = new ManualClock(0);
    const clock = new ReplayMarketClock(wall, 100 * H, 60, 1_000 * H);
    wall.advance(10_000);
    expect(clock.now()).toBe(100 * H);
    clock.advanceTo(150 * H);
    clock.advanceTo(120 * H);
    expect(clock.now()).toBe(150 * H);
    expect(clock.warmingUp).toBe(true);
  });

  it("knows where its warm-up ends: REPLAY_START, later when a recording resumed past it, nothing once running", () => {
    const wall = new ManualClock(0);
    const clock = new ReplayMarketClock(wall, 100 * H, 60, 1_000 * H, 200 * H);
    expect(clock.warmUpEndsAt).toBe(200 * H);
    clock.advanceTo(250 * H);
    expect(clock.warmUpEndsAt).toBe(250 * H);
    clock.run();
    expect(clock.warmUpEndsAt).toBeNull();
    expect(new LiveMarketClock(wall).warmUpEndsAt).toBeNull();
  });

  it("then runs at REPLAY_SPEED market seconds per wall second and stops at the end of the data", () => {
    const wall = new ManualClock(0);
    const clock = new ReplayMarketClock(wall, 100 * H, 60, 102 * H);
    clock.run();
    wall.advance(60_000); // one wall minute = one market hour at speed 60
    expect(clock.now()).toBe(101 * H);
    wall.advance(10 * 60_000);
    expect(clock.now()).toBe(102 * H);
    expect(() => clock.advanceTo(200 * H)).toThrow();
  });
});
