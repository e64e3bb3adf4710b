import { describe, expect, it } from "vitest";
import { chiSquareSurvival, evaluateRegimes, type RegimeHour } from "../../../src/domain/evaluation/regime-evaluation.js";
import type { Regime } from "../../../src/domain/market/vocabulary.js";
import { SeededRandom } from "../../../src/domain/regime/prng.js";

const HOUR = 3_600_000;
const START = Date.UTC(2025, 0, 1);

/** A two-state chain that switches with probability 1/`meanHours` an hour: episodes of days. */
function episodes(rng: SeededRandom, hours: number, meanHours: number): number[] {
  const out: number[] = [];
  let state = 0;
  for (let t = 0; t < hours; t++) {
    if (rng.next() < 1 / meanHours) state = 1 - state;
    out.push(state);
  }
  return out;
}

/**
 * 90 days of hours whose volatility follows a persistent calm/stormy state. Trailing volatility
 * sees the state through heavy noise; `regimeOf` decides what the published regime knows.
 */
function hours(seed: number, regimeOf: (volState: number, unrelated: number) => Regime): RegimeHour[] {
  const rng = new SeededRandom(seed);
  const n = 90 * 24;
  const vol = episodes(rng, n, 120);
  const unrelated = episodes(rng, n, 120);
  return vol.map((s, t) => ({
    at: START + t * HOUR,
    regime: regimeOf(s, unrelated[t] as number),
    trailingVolPct: Math.exp(3.5 + 0.6 * s + 0.8 * rng.normal()),
    forwardVolPct: Math.exp(3.5 + 0.6 * s + 0.3 * rng.normal()),
    forwardReturn: 0.01 * rng.normal(),
  }));
}

describe("what the regime adds to forecasting volatility, against chance", () => {
  it("reads a regime unrelated to volatility as chance: levels add R² anyway, inside what a shifted sequence adds", () => {
    const e = evaluateRegimes(hours(3, (_s, u) => (u === 1 ? "RISK_ON" : "ACCUMULATION")));
    const chance = e.r2AddedByChance!;
    expect(chance.shifts).toBe(199);
    // Persistent levels fit some of the volatility's own persistence whatever they mean.
    expect(chance.median).toBeGreaterThan(0);
    expect(e.r2AddedByRegime!).toBeGreaterThan(0);
    expect(e.r2AddedByRegime!).toBeLessThan(chance.p95);
    expect(chance.pValue).toBeGreaterThan(0.05);
  });

  it("reads a regime that knows the volatility state as information: far beyond every shift", () => {
    const e = evaluateRegimes(hours(3, (s) => (s === 1 ? "HIGH_VOLATILITY" : "LOW_VOLATILITY")));
    const chance = e.r2AddedByChance!;
    expect(e.r2AddedByRegime!).toBeGreaterThan(chance.p95 + 0.1);
    // No shift adds as much: the smallest p-value 199 shifts can give, 1/200.
    expect(chance.pValue).toBe(0.005);
  });

  it("has no chance reference without enough hours to fit a slope", () => {
    const e = evaluateRegimes(hours(3, () => "RISK_ON").slice(0, 2));
    expect(e.r2AddedByRegime).toBeNull();
    expect(e.r2AddedByChance).toBeNull();
  });
});

describe("a regime's up share", () => {
  it("counts a flat next 24 h as neither up nor down", () => {
    const moves = [0.02, 0.01, -0.01, 0, 0, 0];
    const rows: RegimeHour[] = moves.map((r, i) => ({ at: START + i * HOUR, regime: "RISK_ON", trailingVolPct: 40, forwardVolPct: 40, forwardReturn: r }));
    const row = evaluateRegimes(rows).regimes.find((r) => r.regime === "RISK_ON");
    expect(row?.gradedHours).toBe(6);
    // 2 of the 3 hours that moved went up; counting the flat ones as "not up" would say 1/3.
    expect(row?.upShare).toBe(0.6667);
  });
});

describe("the Kruskal-Wallis p-value", () => {
  // Reference values: R's pchisq(x, df, lower.tail = FALSE).
  it("is the exact chi-square upper tail at every degree of freedom the regimes give", () => {
    const cases: [x: number, df: number, p: number][] = [
      [3.841458820694124, 1, 0.05],
      [0.5, 1, 0.4795001],
      [5.991464547107979, 2, 0.05],
      [7.814727903251178, 3, 0.05],
      [11.070497693516351, 5, 0.05],
      [2.81, 6, 0.8322881],
      [20, 7, 0.0055701],
    ];
    for (const [x, df, p] of cases) expect(chiSquareSurvival(x, df), `x ${x}, df ${df}`).toBeCloseTo(p, 6);
  });

  it("does not call a test significant that is not: H 3.80 on 1 df is p 0.051, not under 0.05", () => {
    // Wilson-Hilferty, used before, gave 0.0484 here.
    expect(chiSquareSurvival(3.8, 1)).toBeCloseTo(0.05125, 5);
    expect(chiSquareSurvival(0, 3)).toBe(1);
    // Far out in the tail and at many degrees of freedom: a number, not 0 × ∞.
    expect(chiSquareSurvival(1000, 1000)).toBeCloseTo(0.494, 3);
    expect(chiSquareSurvival(3000, 999)).toBeGreaterThan(0);
    expect(chiSquareSurvival(3000, 999)).toBeLessThan(1e-150);
    expect(() => chiSquareSurvival(2, 0)).toThrow(RangeError);
  });
});
