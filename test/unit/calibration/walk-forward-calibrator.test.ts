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

  it("keeps the day before's map until the close at the day's fit time is known, then fits as a late starter does", () => {
    const { prices, rows } = market(120);
    const day = T0 + 100 * DAY;
    const before = rows.filter((r) => r.at < day);
    // Live at 00:00:30: the bar closing at midnight has not reached the feed yet.
    const early = new WalkForwardCalibrator("verdict:BTC", prices.upTo(day - 1));
    for (const r of before) early.calibrate(r);
    const waiting = early.mapAt(day + 30_000);
    expect(waiting.fittedAt).toBe(day - DAY);
    // A minute later it has: the day's map counts the outcome that ended at midnight.
    early.setPrices(prices.upTo(day + 60_000));
    const fitted = early.mapAt(day + 60_000);
    expect(fitted.fittedAt).toBe(day);
    // The same map as an actor that started after the close (restarted, or on another replica).
    const late = new WalkForwardCalibrator("verdict:BTC", prices.upTo(day + 60_000));
    for (const r of before) late.calibrate(r);
    expect(fitted).toEqual(late.mapAt(day + 60_000));
    // An actor activated at 00:00:30 with no map yet has the one a running actor has in force.
    const fresh = new WalkForwardCalibrator("verdict:BTC", prices.upTo(day - 1));
    for (const r of before) fresh.observe(r);
    expect(fresh.mapAt(day + 30_000)).toEqual(waiting);
  });

  it("answers a turn begun before midnight with its own day's map after the next day's fit, and nothing older", () => {
    const { prices, rows } = market(60);
    const day = T0 + 40 * DAY;
    const cal = new WalkForwardCalibrator("verdict:BTC", prices);
    for (const r of rows.filter((r) => r.at < day)) cal.calibrate(r);
    const yesterday = cal.mapAt(day - 5 * 60_000);
    expect(cal.mapAt(day).fittedAt).toBe(day);
    // A verdict turn whose grid time was 23:55 reaches the calibrator after midnight's fit.
    expect(cal.mapAt(day - 5 * 60_000)).toBe(yesterday);
    expect(() => cal.mapAt(day - DAY - 1)).toThrow(/cannot go back in time/);
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
