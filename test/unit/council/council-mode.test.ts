import { describe, expect, it } from "vitest";
import { COUNCIL_FRESHNESS_MS, councilModeAt, isRecentSession, type CouncilHistory } from "../../../src/domain/council/council-mode.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { T0 } from "./fixtures.js";

describe("council_mode (DECISIONS 7)", () => {
  it("null with no council data", () => {
    expect(councilModeAt({ lastSession: null, lastModelSessionAt: null }, T0, false)).toBeNull();
  });

  it("flips to judiciary 45 minutes after the last model-answered session, and back on the next one", () => {
    const clock = new ManualClock(T0);
    let history: CouncilHistory = { lastSession: { at: T0, mode: "council" }, lastModelSessionAt: T0 };
    expect(councilModeAt(history, clock.now(), false)).toBe("council");
    clock.advance(COUNCIL_FRESHNESS_MS);
    expect(councilModeAt(history, clock.now(), false)).toBe("council");
    clock.advance(1);
    expect(councilModeAt(history, clock.now(), false)).toBe("judiciary");
    // The provider failed: a judiciary session is stored; the mode stays judiciary.
    history = { lastSession: { at: clock.now(), mode: "judiciary" }, lastModelSessionAt: T0 };
    expect(councilModeAt(history, clock.now(), false)).toBe("judiciary");
    // The provider recovers: automatic switch back.
    clock.advance(30 * 60_000);
    history = { lastSession: { at: clock.now(), mode: "council" }, lastModelSessionAt: clock.now() };
    expect(councilModeAt(history, clock.now(), false)).toBe("council");
  });

  it("judiciary when sessions exist but none ever had a model", () => {
    expect(councilModeAt({ lastSession: { at: T0, mode: "judiciary" }, lastModelSessionAt: null }, T0, false)).toBe("judiciary");
  });

  it("during a BLACKOUT the last session's mode stands", () => {
    const history = { lastSession: { at: T0, mode: "council" as const }, lastModelSessionAt: T0 };
    expect(councilModeAt(history, T0 + 10 * 3_600_000, true)).toBe("council");
    expect(councilModeAt(history, T0 + 10 * 3_600_000, false)).toBe("judiciary");
  });
});

describe("a recent council session (SPEC: the verdict's council fields are null without one)", () => {
  const MIN = 60_000;
  const at = Date.UTC(2026, 2, 10, 12, 0);
  it("is at most 45 market minutes old: one late 30-minute slot is tolerated, two are not", () => {
    expect(isRecentSession(at, at, false)).toBe(true);
    expect(isRecentSession(at, at + 45 * MIN, false)).toBe(true);
    expect(isRecentSession(at, at + 45 * MIN + 1, false)).toBe(false);
    expect(isRecentSession(at, at + 3 * 60 * MIN, false)).toBe(false);
  });
  it("during a BLACKOUT day the last session before the pause stands, and no longer", () => {
    const lastBefore = Date.UTC(2026, 2, 10, 23, 30);
    expect(isRecentSession(lastBefore, Date.UTC(2026, 2, 11, 23, 59), true)).toBe(true);
    expect(isRecentSession(lastBefore, lastBefore + 24 * 60 * MIN + 45 * MIN + 1, true)).toBe(false);
  });
});
