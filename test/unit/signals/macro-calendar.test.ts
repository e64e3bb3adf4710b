import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { calendarStatus, tierOf, type CalendarEvent } from "../../../src/domain/signals/macro-calendar.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { parseCalendar } from "../../../src/feeds/replay/calendar-file.js";
import { readGzText } from "../../../src/feeds/replay/csv-table.js";
import { CALENDAR_FILE } from "../../../src/feeds/replay/dataset-files.js";

const at = (iso: string) => Date.parse(iso);

describe("macro calendar on the real 2024-09-18 FOMC decision (14:00 ET = 18:00Z)", () => {
  let events: CalendarEvent[];
  beforeAll(async () => {
    events = parseCalendar(await readGzText(join("market-data", CALENDAR_FILE)));
  });

  it("loads the bundled calendar with TIER1 tiers", () => {
    expect(events.length).toBe(106);
    expect(new Set(events.map((e) => e.tier))).toEqual(new Set(["TIER1"]));
  });

  it("walks CLEAR → WATCH → WARNING → BLACKOUT, active from 17:30Z to 19:00Z", () => {
    const clock = new ManualClock(at("2024-09-14T12:00:00Z"));
    const s = () => calendarStatus(events, clock.now());
    expect(s()).toMatchObject({ status: "CLEAR", tier: "TIER1", event_name: "FOMC rate decision (statement)", is_active: false });
    expect(s().hours_until).toBe(102);
    clock.set(at("2024-09-16T12:00:00Z"));
    expect(s().status).toBe("WATCH");
    clock.set(at("2024-09-17T20:00:00Z"));
    expect(s()).toMatchObject({ status: "WARNING", hours_until: 22 });
    clock.set(at("2024-09-18T00:00:00Z"));
    expect(s()).toMatchObject({ status: "BLACKOUT", is_active: false, hours_until: 18 });
    clock.set(at("2024-09-18T17:29:59Z"));
    expect(s().is_active).toBe(false);
    clock.set(at("2024-09-18T17:30:00Z"));
    expect(s()).toMatchObject({ status: "BLACKOUT", is_active: true, hours_until: 0 });
    clock.set(at("2024-09-18T19:00:00Z"));
    expect(s().is_active).toBe(true);
    clock.set(at("2024-09-18T19:00:01Z"));
    expect(s()).toMatchObject({ status: "BLACKOUT", is_active: false, event_name: "Nonfarm payrolls release (BLS Employment Situation)" });
    clock.set(at("2024-09-19T00:00:00Z"));
    expect(s().status).toBe("CLEAR");
  });

  it("reports NONE past the last event", () => {
    expect(calendarStatus(events, at("2030-01-01T00:00:00Z"))).toEqual({
      tier: "NONE",
      event_name: null,
      hours_until: 0,
      is_active: false,
      status: "CLEAR",
      complete_until: "2026-02-11T13:30:00.000Z",
    });
  });

  it("is complete up to the last listed payrolls release (2026-02-11): CPI ends 2026-02-13, FOMC decisions run through 2026", () => {
    const last = (re: RegExp) => Math.max(...events.filter((e) => re.test(e.name)).map((e) => e.at));
    expect(new Date(last(/payrolls/i)).toISOString()).toBe("2026-02-11T13:30:00.000Z");
    expect(new Date(last(/CPI/)).toISOString()).toBe("2026-02-13T13:30:00.000Z");
    expect(last(/FOMC/)).toBeGreaterThan(at("2026-12-01T00:00:00Z"));
    expect(calendarStatus(events, at("2026-03-11T12:00:00Z")).complete_until).toBe("2026-02-11T13:30:00.000Z");
    // Without payrolls rows the calendar is complete only up to the last CPI release.
    const noPayrolls = events.filter((e) => !/payrolls/i.test(e.name));
    expect(calendarStatus(noPayrolls, at("2026-03-11T12:00:00Z")).complete_until).toBe("2026-02-13T13:30:00.000Z");
    expect(calendarStatus([], at("2026-03-11T12:00:00Z")).complete_until).toBeNull();
  });
});

describe("tierOf", () => {
  it("classifies by DECISIONS 7", () => {
    expect(tierOf("FOMC rate decision (statement)")).toBe("TIER1");
    expect(tierOf("CPI release (BLS Consumer Price Index)")).toBe("TIER1");
    expect(tierOf("Nonfarm payrolls release (BLS Employment Situation)")).toBe("TIER1");
    expect(tierOf("FOMC minutes")).toBe("TIER2");
    expect(tierOf("PCE price index")).toBe("TIER2");
    expect(tierOf("GDP advance estimate")).toBe("TIER2");
    expect(tierOf("Retail sales")).toBe("TIER3");
  });

  it("lets a TIER2 event warn but not black out", () => {
    const ev: CalendarEvent[] = [{ name: "GDP", tier: "TIER2", at: at("2025-01-02T13:30:00Z") }];
    expect(calendarStatus(ev, at("2025-01-02T00:00:00Z")).status).toBe("WARNING");
    expect(calendarStatus(ev, at("2025-01-02T13:00:00Z")).is_active).toBe(true);
  });
});
