import { describe, expect, it } from "vitest";
import type { ClosedTrade, SignalAtEntry } from "../../../src/domain/ghost/trade.js";
import type { Regime } from "../../../src/domain/market/vocabulary.js";
import { updateWeights, weightsView, multiplierFor, type WeightRow } from "../../../src/domain/weights/update-weights.js";
import { MAX_MULTIPLIER, MIN_MULTIPLIER, nextMultiplier, targetMultiplier, WINDOW_TRADES } from "../../../src/domain/weights/weight-rules.js";
import { BASELINE_LOOKBACK_MS, exitBaseline, MIN_BASELINE_ENTRIES } from "../../../src/domain/weights/exit-baseline.js";
import { MAX_HOLD_MS } from "../../../src/domain/ghost/exit-levels.js";
import type { EntryOutcome } from "../../../src/domain/ghost/random-entry.js";
import { D0, DAY, trade } from "../ghost/ledger-fixture.js";

const NOW = "2024-02-01T00:00:00.000Z";
/** A coin-flip baseline: the SPEC-era grading, kept to pin the rules themselves. */
const COIN = () => 0.5;

/** `n` trades in `regime`; `wins` of them win; RSI always bullish, DXY always bearish, FNG neutral. */
function trades(n: number, wins: number, regime: Regime = "BULL_TRENDING", startDay = 0): ClosedTrade[] {
  const signals: SignalAtEntry[] = [
    { key: "BTC_RSI", value: 60, contribution: 0.3 },
    { key: "DXY", value: 105, contribution: -0.3 },
    { key: "FEAR_GREED_INDEX", value: 50, contribution: 0.01 },
  ];
  return Array.from({ length: n }, (_, i) => ({
    ...trade({ exit: i < wins ? 110 : 95, entryTime: D0 + (startDay + i) * DAY, holdHours: 2, regime }),
    signalsAtEntry: signals,
  }));
}

const row = (rows: WeightRow[], key: string, regime: Regime = "BULL_TRENDING") =>
  rows.find((r) => r.signal_key === key && r.regime === regime);

describe("weight rules", () => {
  it("never leaves [0.30, 2.00], whatever the previous value held", () => {
    // A previous 5 once gave 4 (its 20 % band lies above the maximum); NaN gave NaN.
    expect(nextMultiplier(5, 0.9, 40)).toBe(1.8);
    expect(nextMultiplier(5, 1, 40)).toBe(MAX_MULTIPLIER);
    expect(nextMultiplier(0.01, 0.1, 40)).toBe(MIN_MULTIPLIER);
    expect(nextMultiplier(Number.NaN, 0.9, 40)).toBe(1.2);
  });

  it("target: 50 % right → 1.0; bounded to [0.30, 2.00]", () => {
    expect(targetMultiplier(0.5)).toBe(1);
    expect(targetMultiplier(1)).toBe(2);
    expect(targetMultiplier(0)).toBe(MIN_MULTIPLIER);
  });

  it("below 10 data points the multiplier is 1.0", () => {
    expect(nextMultiplier(1.5, 1, 9)).toBe(1);
    expect(nextMultiplier(1, 1, 10)).toBe(1.2);
  });

  it("never moves more than 20 % in one cycle, and never leaves the bounds", () => {
    let m = 1;
    const seen: number[] = [];
    for (let i = 0; i < 20; i++) {
      const next = nextMultiplier(m, 1, 50);
      expect(next).toBeLessThanOrEqual(m * 1.2 + 1e-12);
      m = next;
      seen.push(m);
    }
    expect(Math.max(...seen)).toBe(MAX_MULTIPLIER);
    for (let i = 0; i < 20; i++) {
      const next = nextMultiplier(m, 0, 50);
      expect(next).toBeGreaterThanOrEqual(m * 0.8 - 1e-12);
      m = next;
    }
    expect(m).toBe(MIN_MULTIPLIER);
  });

  it("the stored 4-decimal value respects the cap", () => {
    const prev = 1.23456789;
    const next = nextMultiplier(prev, 1, 20);
    // 1.23456789 × 1.2 = 1.481481468: rounded down to 4 decimals, so the stored value stays under the cap.
    expect(next).toBe(1.4814);
  });
});

describe("weights update cycle", () => {
  it("moves toward signals that were right, away from those that were wrong", () => {
    const rows = updateWeights([], trades(20, 16), NOW, COIN);
    expect(row(rows, "BTC_RSI")).toMatchObject({ accuracy: 0.8, data_points: 20, multiplier: 1.2 });
    expect(row(rows, "DXY")).toMatchObject({ accuracy: 0.2, data_points: 20, multiplier: 0.8 });
    expect(row(rows, "FEAR_GREED_INDEX")).toBeUndefined();
    const again = updateWeights(rows, trades(20, 16), NOW, COIN);
    expect(row(again, "BTC_RSI")?.multiplier).toBe(1.44);
    expect(row(again, "DXY")?.multiplier).toBe(0.64);
  });

  it("fewer than 10 trades leave every multiplier at 1.0", () => {
    const rows = updateWeights([], trades(9, 9), NOW, COIN);
    expect(row(rows, "BTC_RSI")).toMatchObject({ multiplier: 1, data_points: 9, accuracy: 1 });
  });

  it("keeps regimes apart: a regime's trades never change another regime's rows", () => {
    const rows = updateWeights([], [...trades(20, 20, "BULL_TRENDING"), ...trades(20, 0, "RISK_ON", 100)], NOW, COIN);
    expect(row(rows, "BTC_RSI", "BULL_TRENDING")).toMatchObject({ accuracy: 1, multiplier: 1.2 });
    expect(row(rows, "BTC_RSI", "RISK_ON")).toMatchObject({ accuracy: 0, multiplier: 0.8 });
    const view = weightsView(rows, "RISK_ON", NOW);
    expect(view.regime).toBe("RISK_ON");
    expect(view.weights.every((r) => r.regime === "RISK_ON")).toBe(true);
    const all = weightsView(rows, "ALL", NOW);
    expect(all.regime).toBe("ALL");
    expect(all.weights).toHaveLength(4);
    expect(all.avg_accuracy).toBe(0.5);
    expect(all.window_size).toBe(WINDOW_TRADES);
    expect(multiplierFor(rows, "BTC_RSI", "RISK_ON")).toBe(0.8);
    expect(multiplierFor(rows, "GOLD", "RISK_ON")).toBe(1);
  });

  it("grades only the most recent 50 trades of a regime (old evidence decays out)", () => {
    const old = trades(50, 0);
    const recent = trades(50, 50, "BULL_TRENDING", 200);
    const rows = updateWeights([], [...old, ...recent], NOW, COIN);
    expect(row(rows, "BTC_RSI")).toMatchObject({ accuracy: 1, data_points: 50 });
  });

  it("is deterministic and independent of input order", () => {
    const ts = [...trades(30, 12), ...trades(15, 10, "ACCUMULATION", 100)];
    const a = updateWeights([], ts, NOW, COIN);
    const b = updateWeights([], [...ts].reverse(), NOW, COIN);
    expect(b).toEqual(a);
  });

  it("an empty ledger gives an empty view with accuracy 0, not NaN", () => {
    const v = weightsView(updateWeights([], [], NOW, COIN), "ALL", NOW);
    expect(v).toEqual({ regime: "ALL", weights: [], avg_accuracy: 0, window_size: WINDOW_TRADES, last_updated: NOW });
  });
});

describe("skill, not geometry (issue 16)", () => {
  it("target: the no-skill chance maps to 1.0, always right to 2.0, always wrong to the floor", () => {
    expect(targetMultiplier(0.6, 0.6)).toBe(1);
    expect(targetMultiplier(1, 0.6)).toBe(2);
    expect(targetMultiplier(0, 0.6)).toBe(MIN_MULTIPLIER);
    expect(targetMultiplier(0.3, 0.6)).toBeCloseTo(0.5, 10);
    expect(targetMultiplier(0.8, 0.6)).toBeCloseTo(1.5, 10);
  });

  it("a bullish signal that wins only as often as random entries with the same exits is not amplified", () => {
    // 80 % of trades win, and so would 80 % of random entries with these exits: no skill either way.
    const rows = updateWeights([], trades(20, 16), NOW, () => 0.8);
    expect(row(rows, "BTC_RSI")).toMatchObject({ accuracy: 0.8, data_points: 20, multiplier: 1 });
    expect(row(rows, "DXY")).toMatchObject({ accuracy: 0.2, data_points: 20, multiplier: 1 });
    // Against a coin flip the same record looked like skill.
    expect(row(updateWeights([], trades(20, 16), NOW, COIN), "BTC_RSI")?.multiplier).toBe(1.2);
    // Below the baseline it is damped (by at most 20 %).
    expect(row(updateWeights([], trades(20, 10), NOW, () => 0.8), "BTC_RSI")?.multiplier).toBe(0.8);
  });

  it("each asset's calls weigh equally, so one asset's many trades do not set another's multiplier", () => {
    const eth = trades(40, 0).map((t) => ({ ...t, asset: "ETH" as const, id: `eth-${t.id}` }));
    const btc = trades(10, 10, "BULL_TRENDING", 100);
    const rows = updateWeights([], [...eth, ...btc], NOW, COIN);
    // Pooled it would be 10 right of 50 (0.2); weighted per asset it is (0 + 1) / 2.
    expect(row(rows, "BTC_RSI")).toMatchObject({ accuracy: 0.5, data_points: 50, multiplier: 1 });
  });

  it("data points never fall: the window is a row's most recent calls, so a signal going quiet keeps its evidence", () => {
    const first = updateWeights([], trades(20, 16), NOW, COIN);
    expect(row(first, "BTC_RSI")?.multiplier).toBe(1.2);
    // Five newer trades on which BTC_RSI made no call (neutral band).
    const quiet = trades(5, 5, "BULL_TRENDING", 50).map((t) => ({ ...t, signalsAtEntry: [{ key: "BTC_RSI" as const, value: 50, contribution: 0.01 }] }));
    const next = updateWeights(first, [...trades(20, 16), ...quiet], NOW, COIN);
    expect(row(next, "BTC_RSI")).toMatchObject({ data_points: 20, multiplier: 1.44 });
  });
});

describe("exit baseline: random entries' win rate with the same exits before the trade", () => {
  const H = 3_600_000;
  const E = D0 + 200 * DAY;
  /** One random entry per hour over the lookback; `winning(i)` decides each outcome; 24 h holds. */
  const outcomes = (winning: (t: number) => boolean): EntryOutcome[] =>
    Array.from({ length: (BASELINE_LOOKBACK_MS + 30 * DAY) / H }, (_, i) => {
      const t = E - BASELINE_LOOKBACK_MS - 10 * DAY + i * H;
      return { entryTime: t, exitTime: t + DAY, pnlUsd: winning(t) ? 10 : -10, pnlPct: 0 };
    });

  it("is the win rate of entries already closed at the trade's entry, over the 90 days before it", () => {
    // Entries in the last week before E (still open at E under the longest hold) and after E all
    // win; the ones that count win one time in four.
    const o = outcomes((t) => t >= E - MAX_HOLD_MS || Math.floor(t / H) % 4 === 0);
    expect(exitBaseline(o, E)).toBeCloseTo(0.25, 2);
  });

  it("measures nothing with too little history (the caller grades against a coin flip and keeps nothing)", () => {
    const few = outcomes(() => true).filter((x) => x.entryTime < E - MAX_HOLD_MS).slice(-(MIN_BASELINE_ENTRIES - 1));
    expect(exitBaseline(few, E)).toBeNull();
    expect(exitBaseline([], E)).toBeNull();
  });
});
