import { describe, expect, it } from "vitest";
import { rulingOutcomes } from "../../../src/domain/judiciary/ruling-outcomes.js";

const H = 3_600_000;
const prices = Array.from({ length: 100 }, (_, i) => ({ t: i * H, close: 100 + i }));

describe("ruling outcomes over the next 24 hours", () => {
  it("counts, shares, forward returns and hit rates per ruling, in ruling order", () => {
    const report = rulingOutcomes(
      [
        { at: 0, ruling: "BUY" },
        { at: 10 * H, ruling: "BUY" },
        { at: 20 * H, ruling: "SELL" },
        { at: 30 * H, ruling: "HOLD" },
      ],
      prices,
    );
    expect(report.map((r) => r.ruling)).toEqual(["BUY", "HOLD", "SELL"]);
    const buy = report[0];
    expect(buy).toMatchObject({ count: 2, share: 0.5, graded: 2, hitRate: 1 });
    // 100 → 124 is +24%; 110 → 134 is +21.8%
    expect(buy?.meanReturnPct).toBeCloseTo((24 + (24 / 110) * 100) / 2, 6);
    expect(report[2]).toMatchObject({ ruling: "SELL", hitRate: 0 });
    expect(report[1]?.hitRate).toBeNull();
  });

  it("does not grade rulings whose horizon runs past the data", () => {
    const [r] = rulingOutcomes([{ at: 90 * H, ruling: "BUY" }], prices);
    expect(r).toMatchObject({ count: 1, graded: 0, meanReturnPct: null, medianReturnPct: null, hitRate: null });
  });

  it("REDUCE and AVOID are not graded for hits (DECISIONS 4)", () => {
    const report = rulingOutcomes([{ at: 0, ruling: "AVOID" }, { at: 0, ruling: "REDUCE" }], prices);
    expect(report.every((r) => r.hitRate === null && r.graded === 1)).toBe(true);
  });
});
