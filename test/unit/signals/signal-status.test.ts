import { describe, expect, it } from "vitest";
import { signalStatus } from "../../../src/domain/signals/signal-status.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";

const H = 3_600_000;

describe("signalStatus (DECISIONS 4)", () => {
  it("is DEAD without a source or without any reading", () => {
    expect(signalStatus(1_000, null, 1_000)).toBe("DEAD");
    expect(signalStatus(null, H, 1_000)).toBe("DEAD");
  });

  it("moves LIVE → STALE → DEAD at 2x refresh and 24 h later, boundaries inclusive", () => {
    const observed = Date.UTC(2026, 0, 1);
    const clock = new ManualClock(observed);
    const at = () => signalStatus(observed, H, clock.now());
    expect(at()).toBe("LIVE");
    clock.advance(2 * H);
    expect(at()).toBe("LIVE");
    clock.advance(1);
    expect(at()).toBe("STALE");
    clock.set(observed + 2 * H + 24 * H);
    expect(at()).toBe("STALE");
    clock.advance(1);
    expect(at()).toBe("DEAD");
  });

  it("scales with the refresh interval (daily source LIVE for 48 h)", () => {
    const day = 24 * H;
    expect(signalStatus(0, day, 48 * H)).toBe("LIVE");
    expect(signalStatus(0, day, 48 * H + 1)).toBe("STALE");
    expect(signalStatus(0, day, 72 * H + 1)).toBe("DEAD");
  });

  it("treats a reading stamped slightly in the future as LIVE", () => {
    expect(signalStatus(10_000, H, 5_000)).toBe("LIVE");
  });
});
