import { describe, expect, it } from "vitest";
import { withOutcomes, withOutcomesBySpan, withOutcomesSteps } from "../../../src/domain/evaluation/stream-outcomes.js";
import { runSteps } from "../../../src/domain/evaluation/steps.js";
import type { CalibratedHour } from "../../../src/domain/calibration/walk-forward-calibrator.js";
import { PricePath, type PricePoint } from "../../../src/domain/calibration/price-path.js";

const HOUR = 3_600_000;
const START = Date.UTC(2024, 0, 1);

/** Hourly closes over 30 days, one missing bar on day 10 (a gap the grading must not bridge). */
const prices: PricePoint[] = Array.from({ length: 30 * 24 }, (_, i) => ({ t: START + i * HOUR, close: 100 + 10 * Math.sin(i / 9) + i / 50 })).filter(
  (p) => p.t !== START + 240 * HOUR,
);
const rows: CalibratedHour[] = prices.slice(0, 26 * 24).map((p, i) => ({
  at: p.t,
  ruling: i % 3 === 0 ? "BUY" : i % 3 === 1 ? "SELL" : "HOLD",
  score: (i % 50) - 25,
  confidence: 0.55,
  pUp: 0.55,
  calibration: "base_rate",
  baseRate: 0.52,
}));
const upTo = (t: number) => PricePath.of(prices).upTo(t);

describe("outcomes of published rows", () => {
  it("reuses an earlier evaluation's settled rows and regrades the rest: the same outcomes as grading from scratch", () => {
    const earlierAt = START + 20 * 24 * HOUR;
    const earlier = runSteps(withOutcomesSteps(rows.filter((r) => r.at <= earlierAt), upTo(earlierAt), earlierAt));
    // Rows of the last 72 h before `earlierAt` had horizons still open then.
    const open = runSteps(earlier.rowsSteps()).filter((r) => r.forward.h72 === null);
    expect(open.length).toBeGreaterThan(0);
    const now = START + 29 * 24 * HOUR;
    const fresh = withOutcomes(rows, upTo(now), now);
    const reusing = runSteps(withOutcomesSteps(rows.slice(earlier.length), upTo(now), now, earlier));
    expect(runSteps(reusing.rowsSteps())).toEqual(fresh);
    // The rows open then have their outcomes now; the earlier result itself is unchanged.
    expect(reusing.row(earlier.length - 1).forward.h72).not.toBeNull();
    expect(earlier.row(earlier.length - 1).forward.h72).toBeNull();
  });

  it("leaves out rows before `from`, of the earlier result as of the new rows, and grades the rest as from scratch", () => {
    const earlierAt = START + 20 * 24 * HOUR;
    const earlier = runSteps(withOutcomesSteps(rows.filter((r) => r.at <= earlierAt), upTo(earlierAt), earlierAt));
    const now = START + 29 * 24 * HOUR;
    const fresh = withOutcomes(rows, upTo(now), now);
    // A window starting inside the earlier result, then one starting after it (every kept row new).
    for (const from of [START + 5 * 24 * HOUR + 30 * 60_000, START + 22 * 24 * HOUR]) {
      const windowed = runSteps(withOutcomesSteps(rows.slice(earlier.length), upTo(now), now, earlier, from));
      const kept = runSteps(windowed.rowsSteps());
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.length).toBeLessThan(fresh.length);
      expect(kept).toEqual(fresh.filter((r) => r.at >= from));
    }
  });

  it("refuses rows that do not follow the earlier result (a row graded twice would count twice)", () => {
    const earlierAt = START + 20 * 24 * HOUR;
    const earlier = runSteps(withOutcomesSteps(rows.filter((r) => r.at <= earlierAt), upTo(earlierAt), earlierAt));
    const now = START + 29 * 24 * HOUR;
    expect(() => runSteps(withOutcomesSteps(rows, upTo(now), now, earlier))).toThrow(/must follow/);
  });
});

describe("outcomes by protocol span", () => {
  const HELD_OUT = Date.UTC(2023, 0, 1);
  const from = HELD_OUT - 10 * 24 * HOUR;
  const closes: PricePoint[] = Array.from({ length: 20 * 24 }, (_, i) => ({ t: from + i * HOUR, close: 100 + 5 * Math.sin(i / 7) + i / 40 }));
  const published: CalibratedHour[] = closes.slice(0, 16 * 24).map((p, i) => ({
    at: p.t,
    ruling: i % 2 === 0 ? "BUY" : "SELL",
    score: 10,
    confidence: 0.55,
    pUp: 0.55,
    calibration: "base_rate",
    baseRate: 0.52,
  }));
  const path = PricePath.of(closes);
  const now = closes[closes.length - 1]!.t;

  it("grades no in-sample row on a held-out price and every held-out row as usual", () => {
    const bySpan = withOutcomesBySpan(published, path, now);
    const plain = withOutcomes(published, path, now);
    expect(bySpan.map((r) => r.at)).toEqual(plain.map((r) => r.at));
    const at = (t: number) => bySpan.find((r) => r.at === t)!;
    // 2022-12-31 20:00: its 4 h ends exactly at 2023-01-01 00:00 (the year's last close), graded;
    // its 24 h and 72 h end in 2023 and are left ungraded.
    expect(at(HELD_OUT - 4 * HOUR).forward.h4).not.toBeNull();
    expect(at(HELD_OUT - 4 * HOUR).forward.h24).toBeNull();
    expect(at(HELD_OUT - 3 * HOUR).forward.h4).toBeNull();
    // Graded without the purge, the same rows read January's prices.
    expect(plain.find((r) => r.at === HELD_OUT - 3 * HOUR)!.forward.h4).not.toBeNull();
    // Every row of either span whose horizons ended inside its own span is graded as before.
    const inOwnSpan = (r: (typeof plain)[number], h: number) => r.at >= HELD_OUT || r.at + h * HOUR <= HELD_OUT;
    for (const [i, r] of plain.entries()) {
      expect(bySpan[i]!.forward.h4).toBe(inOwnSpan(r, 4) ? r.forward.h4 : null);
      expect(bySpan[i]!.forward.h72).toBe(inOwnSpan(r, 72) ? r.forward.h72 : null);
    }
  });
});
