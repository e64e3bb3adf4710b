import { describe, expect, it } from "vitest";
import { wallLagSeconds } from "../../../src/runtime/runtime-metrics.js";
import { LiveMarketClock, ReplayMarketClock } from "../../../src/runtime/clocks/market-clock.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";

const T0 = Date.UTC(2026, 2, 1);

describe("a reminder's lag as the metric reports it", () => {
  it("is wall seconds whichever clock the reminder runs on", () => {
    const wall = new ManualClock(T0);
    expect(wallLagSeconds(wall, 1_500)).toBe(1.5);
    expect(wallLagSeconds(new LiveMarketClock(wall), 1_500)).toBe(1.5);
    // Replay at 60×: a reminder a market minute late waited one wall second.
    const replay = new ReplayMarketClock(wall, T0, 60, T0 + 86_400_000);
    replay.run();
    expect(wallLagSeconds(replay, 60_000)).toBe(1);
  });

  it("is not observed while the warm-up fast-forwards market time: its steps are not delays", () => {
    const replay = new ReplayMarketClock(new ManualClock(T0), T0 - 86_400_000, 60, T0 + 86_400_000, T0);
    expect(replay.warmingUp).toBe(true);
    expect(wallLagSeconds(replay, 300_000)).toBeNull();
  });
});
