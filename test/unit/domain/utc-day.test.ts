import { describe, expect, it } from "vitest";
import { nextUtcMidnight, utcDay } from "../../../src/domain/access/utc-day.js";

/** What the functions answered when each call built its own Date: the reference. */
const byDate = (ms: number) => {
  const d = new Date(ms);
  return { day: d.toISOString().slice(0, 10), midnight: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1) };
};

describe("utcDay and nextUtcMidnight", () => {
  it("agree with Date at the edges of days, across years and before 1970, asked in any order", () => {
    const edges = [Date.UTC(2026, 11, 31, 23, 59, 59, 999), Date.UTC(2027, 0, 1), Date.UTC(2024, 1, 29, 12), Date.UTC(1969, 11, 31, 23, 59, 59, 999), Date.UTC(1970, 0, 1), 0, -1];
    // Alternating days, so an answer kept from the day before is never the one returned.
    const random = Array.from({ length: 2_000 }, (_, i) => Math.round(Math.sin(i * 12.9898) * 43758.5453 * 1e8) % 4_102_444_800_000);
    for (const ms of [...edges, ...random, ...edges.reverse()]) {
      expect({ day: utcDay(ms), midnight: nextUtcMidnight(ms) }, String(ms)).toEqual(byDate(ms));
    }
  });
});
