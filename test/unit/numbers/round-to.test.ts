import { describe, expect, it } from "vitest";
import { roundOrNull, roundTo } from "../../../src/domain/numbers/round-to.js";

describe("roundTo, the one rounding of every published figure", () => {
  it("rounds halves away from zero on both sides, so a loss rounds like the gain of the same size", () => {
    expect(roundTo(0.125, 2)).toBe(0.13);
    expect(roundTo(-0.125, 2)).toBe(-0.13);
  });

  it("rounds a decimal half that float64 stores just below it the way it is written (1.005 → 1.01)", () => {
    expect(1.005 * 100).toBeLessThan(100.5);
    expect(roundTo(1.005, 2)).toBe(1.01);
  });

  it("never publishes −0", () => {
    expect(Object.is(roundTo(-0.00001, 2), 0)).toBe(true);
  });
});

describe("roundOrNull, for statistics that can be undefined", () => {
  it("gives null, not NaN or Infinity, where the statistic does not exist", () => {
    expect(roundOrNull(null)).toBeNull();
    expect(roundOrNull(0 / 0)).toBeNull();
    expect(roundOrNull(1 / 0)).toBeNull();
  });

  it("rounds to four places unless told otherwise", () => {
    expect(roundOrNull(0.123456)).toBe(0.1235);
    expect(roundOrNull(12.3456, 2)).toBe(12.35);
  });
});
