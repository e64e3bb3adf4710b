import { describe, expect, it } from "vitest";
import type { MacroCalendarStatus } from "../../../src/domain/signals/macro-calendar.js";
import type { SignalReading } from "../../../src/domain/signals/reading.js";
import type { SignalKey } from "../../../src/domain/signals/signal-keys.js";
import { buildSignalsSnapshot } from "../../../src/domain/signals/snapshot.js";
import { signalsSnapshotSchema } from "../../../src/http/schemas/signals.js";

const H = 3_600_000;
const NOW = Date.parse("2026-03-23T12:00:00Z");
const calendar: MacroCalendarStatus = { tier: "TIER1", event_name: "CPI", hours_until: 30, is_active: false, status: "WATCH", complete_until: "2026-02-11T13:30:00.000Z" };
const reading = (key: SignalKey, value: number, ageMs: number): [SignalKey, SignalReading] => [
  key,
  { key, value, observedAt: NOW - ageMs, source: "test" },
];

describe("buildSignalsSnapshot", () => {
  const readings = new Map([
    reading("BTC_RSI", 55.5, H),
    reading("FEAR_GREED_INDEX", 20, 12 * H),
    reading("BTC_FUNDING_RATE", 0.01, 17 * H), // 8 h source: STALE after 16 h
    reading("DVOL", 44, 100 * H), // daily source: DEAD after 72 h, keeps its last value
    reading("SOPR", 1.01, 0), // no source in any mode: ignored, DEAD
    reading("BTC_DOMINANCE", 57, 0), // live-only source: DEAD in replay
  ]);
  const snap = buildSignalsSnapshot({ mode: "replay", at: NOW, readings, calendar });
  const item = (k: SignalKey) => snap.signals.find((s) => s.key === k);

  it("lists all 27 signals with counts and coverage", () => {
    expect(snap.signals).toHaveLength(27);
    expect(snap.total_signals).toBe(27);
    expect([snap.live_count, snap.stale_count, snap.dead_count]).toEqual([2, 1, 24]);
    expect(snap.coverage_pct).toBe(7.4);
    expect(snap.timestamp).toBe("2026-03-23T12:00:00.000Z");
    expect(snap.macro_calendar).toEqual(calendar);
  });

  it("applies the status rule per signal with the mode's refresh interval", () => {
    expect(item("BTC_RSI")).toEqual({
      key: "BTC_RSI",
      display_name: "BTC RSI (1H)",
      category: "technical",
      value: 55.5,
      status: "LIVE",
      last_updated: "2026-03-23T11:00:00.000Z",
    });
    expect(item("BTC_FUNDING_RATE")?.status).toBe("STALE");
    expect(item("DVOL")).toMatchObject({ status: "DEAD", value: 44 });
  });

  it("never shows a value for a signal without a source in the mode", () => {
    expect(item("SOPR")).toMatchObject({ status: "DEAD", value: null, last_updated: null });
    expect(item("BTC_DOMINANCE")).toMatchObject({ status: "DEAD", value: null });
    const live = buildSignalsSnapshot({ mode: "live", at: NOW, readings, calendar });
    expect(live.signals.find((s) => s.key === "BTC_DOMINANCE")?.status).toBe("LIVE");
  });

  it("ignores readings stamped after the snapshot time", () => {
    const future = new Map([reading("BTC_RSI", 60, -H)]);
    const s = buildSignalsSnapshot({ mode: "replay", at: NOW, readings: future, calendar });
    expect(s.signals.find((i) => i.key === "BTC_RSI")).toMatchObject({ status: "DEAD", value: null });
  });

  it("validates against the response schema once the cache fields are added", () => {
    const response = { ...snap, cached: false, cache_ttl_seconds: 30 };
    // Parsed back unchanged: the schema accepts every field and drops none.
    expect(signalsSnapshotSchema.parse(response)).toEqual(response);
  });
});
