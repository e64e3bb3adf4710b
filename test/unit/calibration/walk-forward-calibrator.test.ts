import { describe, expect, it } from "vitest";
import { WalkForwardCalibrator, refitTime, type ScoredHour } from "../../../src/domain/calibration/walk-forward-calibrator.js";
import { PricePath, type PricePoint } from "../../../src/domain/calibration/price-path.js";
import { forwardReturn } from "../../../src/domain/calibration/price-path.js";
import { SeededRandom } from "../../../src/domain/regime/prng.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.UTC(2020, 0, 1);

/** A random walk whose next-day direction the score knows a little about (so a fit is possible). */
function market(days: number, seed = 11): { prices: PricePath; rows: ScoredHour[] } {
  const rng = new SeededRandom(seed);
  const n = days * 24;
  const steps = Array.from({ length: n + 48 }, () => rng.normal() * 0.01);
  const prices: PricePoint[] = [];
  let p = 100;
  for (let i = 0; i < steps.length; i++) {
    p *= Math.exp(steps[i] as number);
    prices.push({ t: T0 + i * HOUR, close: p });
  }
  const rows: ScoredHour[] = [];
  for (let i = 0; i < n; i++) {
    let ahead = 0;
    for (let k = 1; k <= 24; k++) ahead += steps[i + k] as number;
    const score = Math.max(-100, Math.min(100, Math.round(ahead * 800 + rng.normal() * 40)));
    rows.push({ at: T0 + i * HOUR, ruling: score >= 15 ? "ACCUMULATE" : score > -15 ? "HOLD" : "REDUCE", score });
  }
  return { prices: PricePath.of(prices), rows };
}

describe("walk-forward calibration", () => {
  it("refits once per UTC day", () => {
    expect(refitTime(Date.UTC(2024, 4, 3, 17, 25))).toBe(Date.UTC(2024, 4, 3));
  });

  it("gives every row the same confidence whatever came after it (no look-ahead)", () => {
    const { prices, rows } = market(500);
    const full = new WalkForwardCalibrator("verdict:BTC", prices);
    const all = rows.map((r) => full.calibrate(r));
    const cut = T0 + 300 * DAY + 7 * HOUR;
    // The same stream with every price and row after `cut` removed.
    const truncated = new WalkForwardCalibrator("verdict:BTC", prices.upTo(cut));
    const part = rows.filter((r) => r.at <= cut).map((r) => truncated.calibrate(r));
    expect(part).toEqual(all.slice(0, part.length));
    // And the fit did use the outcomes: after a few months of skill, maps are isotonic.
    expect(all[all.length - 1]?.calibration).toBe("isotonic");
  });

  it("counts an outcome only once its horizon has ended by the fit time", () => {
    const { prices } = market(10);
    expect(forwardReturn(prices, T0, DAY, T0 + DAY - 1)).toBeNull();
    expect(forwardReturn(prices, T0, DAY, T0 + DAY)).not.toBeNull();
  });

  it("is calibrated out of sample on a market it can learn: reliability gap under 0.05", () => {
    const { prices, rows } = market(900, 21);
    const cal = new WalkForwardCalibrator("verdict:BTC", prices);
    const out = rows.map((r) => cal.calibrate(r)).filter((r) => r.at >= T0 + 400 * DAY && r.ruling !== "HOLD");
    const graded: { c: number; hit: boolean }[] = [];
    for (const r of out) {
      const f = forwardReturn(prices, r.at, DAY);
      if (f !== null && f !== 0) graded.push({ c: r.confidence, hit: (r.ruling === "ACCUMULATE") === f > 0 });
    }
    graded.sort((a, b) => a.c - b.c);
    const gaps: number[] = [];
    for (let q = 0; q < 5; q++) {
      const part = graded.slice(Math.floor((q * graded.length) / 5), Math.floor(((q + 1) * graded.length) / 5));
      const meanC = part.reduce((s, x) => s + x.c, 0) / part.length;
      const hit = part.filter((x) => x.hit).length / part.length;
      gaps.push(Math.abs(meanC - hit));
    }
    expect(gaps.reduce((s, g) => s + g, 0) / gaps.length).toBeLessThan(0.05);
    // Skill was there to find: confident calls exist.
    expect(graded[graded.length - 1]?.c).toBeGreaterThan(0.6);
  });
});
