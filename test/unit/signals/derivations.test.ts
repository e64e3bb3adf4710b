import { getCorrelation } from "trading-signals";
import { describe, expect, it } from "vitest";
import {
  changeOverDays,
  hashRibbon,
  mvrvZScore,
  nupl,
  pctChangeOverDays,
  pearson,
  rollingReturnCorrelation,
  trailingSum,
} from "../../../src/domain/signals/derivations.js";

const DAY = 86_400_000;
const days = (...d: number[]) => Float64Array.from(d, (x) => x * DAY);
const f = (...v: number[]) => Float64Array.from(v);

describe("derived signal formulas", () => {
  it("NUPL = 1 − 1/MVRV", () => {
    expect(Array.from(nupl(f(2, 1, 0.5)))).toEqual([0.5, 0, -1]);
  });

  it("sums the rows of the last 7 calendar days (trading-day gaps included)", () => {
    // days 0,1,2 … 10 minus a weekend (5, 6)
    const t = days(0, 1, 2, 3, 4, 7, 8, 9, 10);
    const v = f(1, 1, 1, 1, 1, 1, 1, 1, 1);
    // at day 7 the window (0, 7] has dropped day 0; weekends simply contribute no rows
    expect(Array.from(trailingSum(t, v, 7))).toEqual([1, 2, 3, 4, 5, 5, 5, 5, 5]);
    expect(Array.from(trailingSum(days(0, 1, 8), f(1, 2, 4), 7))).toEqual([1, 3, 4]);
  });

  it("changes against exactly 7 days earlier, NaN when that day is missing", () => {
    const t = days(0, 1, 7, 9);
    const out = changeOverDays(t, f(100e6, 110e6, 130e6, 150e6), 7, 1e-6);
    expect(out[2]).toBeCloseTo(30);
    expect(out[3]).toBeNaN();
    expect(pctChangeOverDays(t, f(100, 110, 130, 150), 7)[2]).toBeCloseTo(30);
  });

  it("hash ribbon is SMA30/SMA60, defined from the 60th day", () => {
    const days = Float64Array.from({ length: 60 }, (_, i) => i * DAY);
    const hr = Float64Array.from({ length: 60 }, (_, i) => (i < 30 ? 1 : 2));
    const out = hashRibbon(days, hr);
    expect(out[58]).toBeNaN();
    expect(out[59]).toBeCloseTo(2 / 1.5);
  });

  it("hash ribbon averages calendar days, not rows: days missing from the source shorten no window", () => {
    // 90 days, hash rate 100 then 200 from day 73, with days 70..72 missing (as the bundled file
    // lacks 2025-11-13…15). On day 89 the 30-day window is days 60..89 (27 rows), the 60-day one 30..89.
    const kept = Array.from({ length: 90 }, (_, i) => i).filter((d) => d < 70 || d > 72);
    const rate = (d: number) => (d < 73 ? 100 : 200);
    const out = hashRibbon(Float64Array.from(kept, (d) => d * DAY), Float64Array.from(kept, rate));
    const mean = (from: number) => {
      const xs = kept.filter((d) => d >= from).map(rate);
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    expect(out.at(-1)).toBeCloseTo(mean(60) / mean(30), 12);
    // Counting rows instead took the last 30 rows (days 57..89) and the last 60 (days 27..89).
    const byRows = (n: number) => kept.slice(-n).reduce((a, d) => a + rate(d), 0) / n;
    expect(out.at(-1)).toBeCloseTo((4400 / 27) / (7400 / 57), 12);
    expect(Math.abs((out.at(-1) as number) - byRows(30) / byRows(60))).toBeGreaterThan(0.03);
  });

  it("hash ribbon is undefined where a window holds fewer than half its days", () => {
    // Days 0..59, then nothing until day 100: on day 100 the 30-day window (days 71..100) has one row.
    const kept = [...Array.from({ length: 60 }, (_, i) => i), 100];
    const out = hashRibbon(Float64Array.from(kept, (d) => d * DAY), Float64Array.from(kept, () => 5));
    expect(out[59]).toBeCloseTo(1);
    expect(out.at(-1)).toBeNaN();
  });

  it("MVRV Z-score uses an expanding stdev with no look-ahead", () => {
    const cap = Float64Array.from({ length: 400 }, (_, i) => 100 + i);
    const mvrv = new Float64Array(400).fill(2);
    const z = mvrvZScore(cap, mvrv);
    expect(z[363]).toBeNaN();
    const first365 = Array.from(cap.slice(0, 365));
    const mean = first365.reduce((a, b) => a + b, 0) / 365;
    const sd = Math.sqrt(first365.reduce((a, b) => a + (b - mean) ** 2, 0) / 365);
    expect(z[364]).toBeCloseTo((464 - 464 / 2) / sd, 9);
  });

  it("pearson agrees with trading-signals getCorrelation", () => {
    const a = [1, 3, 2, 5, 4, 6];
    const b = [2, 1, 4, 3, 6, 5];
    expect(pearson(a, b)).toBeCloseTo(getCorrelation(a, b), 12);
    expect(pearson([1, 1, 1], [1, 2, 3])).toBeNaN();
  });

  it("keeps pearson inside [−1, 1] for exactly linear samples, where rounding would step past", () => {
    // Unclamped, cov / sqrt(va · vb) lands past ±1 for about a third of these pairs (the response schema refuses that).
    for (let s = 1; s <= 200; s++) {
      const a = Array.from({ length: 30 }, (_, i) => Math.sin(i * s * 0.37) / 7);
      const k = ((s % 11) - 5.5) / 1.3;
      const r = pearson(a, a.map((x) => k * x + 0.3));
      expect(Math.abs(r)).toBeLessThanOrEqual(1);
      expect(Math.abs(r)).toBeCloseTo(1, 12);
    }
  });

  it("correlates daily returns on the series' own dates, BTC over the same span", () => {
    const t = days(0, 1, 2, 3);
    const btc = new Map([
      [0, 100],
      [DAY, 110],
      [2 * DAY, 99],
      [3 * DAY, 108.9],
    ]);
    const out = rollingReturnCorrelation(t, f(10, 11, 9.9, 10.89), (d) => btc.get(d) ?? Number.NaN, 3);
    expect(out[2]).toBeNaN();
    expect(out[3]).toBeCloseTo(1, 12);
  });
});
