import { describe, expect, it } from "vitest";
import type { ClosedTrade, SignalAtEntry } from "../../../src/domain/ghost/trade.js";
import type { Regime } from "../../../src/domain/market/vocabulary.js";
import { updateWeights, weightsView, multiplierFor, type WeightRow } from "../../../src/domain/weights/update-weights.js";
import { MAX_MULTIPLIER, MIN_MULTIPLIER, nextMultiplier, targetMultiplier, WINDOW_TRADES } from "../../../src/domain/weights/weight-rules.js";
import { D0, DAY, trade } from "../ghost/ledger-fixture.js";

const NOW = "2024-02-01T00:00:00.000Z";

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
    expect(next).toBeLessThanOrEqual(prev * 1.2);
    expect(Number.isInteger(Math.round(next * 1e4))).toBe(true);
  });
});

describe("weights update cycle", () => {
  it("moves toward signals that were right, away from those that were wrong", () => {
    const rows = updateWeights([], trades(20, 16), NOW);
    expect(row(rows, "BTC_RSI")).toMatchObject({ accuracy: 0.8, data_points: 20, multiplier: 1.2 });
    expect(row(rows, "DXY")).toMatchObject({ accuracy: 0.2, data_points: 20, multiplier: 0.8 });
    expect(row(rows, "FEAR_GREED_INDEX")).toBeUndefined();
    const again = updateWeights(rows, trades(20, 16), NOW);
    expect(row(again, "BTC_RSI")?.multiplier).toBe(1.44);
    expect(row(again, "DXY")?.multiplier).toBe(0.64);
  });

  it("fewer than 10 trades leave every multiplier at 1.0", () => {
    const rows = updateWeights([], trades(9, 9), NOW);
    expect(row(rows, "BTC_RSI")).toMatchObject({ multiplier: 1, data_points: 9, accuracy: 1 });
  });

  it("keeps regimes apart: a regime's trades never change another regime's rows", () => {
    const rows = updateWeights([], [...trades(20, 20, "BULL_TRENDING"), ...trades(20, 0, "RISK_ON", 100)], NOW);
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
    const rows = updateWeights([], [...old, ...recent], NOW);
    expect(row(rows, "BTC_RSI")).toMatchObject({ accuracy: 1, data_points: 50 });
  });

  it("is deterministic and independent of input order", () => {
    const ts = [...trades(30, 12), ...trades(15, 10, "ACCUMULATION", 100)];
    const a = updateWeights([], ts, NOW);
    const b = updateWeights([], [...ts].reverse(), NOW);
    expect(b).toEqual(a);
  });

  it("an empty ledger gives an empty view with accuracy 0, not NaN", () => {
    const v = weightsView(updateWeights([], [], NOW), "ALL", NOW);
    expect(v).toEqual({ regime: "ALL", weights: [], avg_accuracy: 0, window_size: WINDOW_TRADES, last_updated: NOW });
  });
});
