import { beforeAll, describe, expect, it } from "vitest";
import { runBacktest, type BacktestReport } from "../../../src/domain/ghost/backtest.js";
import { INTEGRITY_CHECKS, integrityChecks } from "../../../src/domain/ghost/ledger-integrity.js";
import { StandInInputs } from "../../support/ghost-stand-in-inputs.js";
import type { Candle } from "../../../src/domain/signals/reading.js";
import { between, loadHourlyCandles } from "../../support/ghost-candles.js";

/*
 * The Ghost rules over real BTC/USDT 1 h bars of 2024 (market-data/btc_usdt_1h_binance.csv.gz)
 * with the technical stand-in inputs. Not a performance claim: it checks that a year of real
 * prices produces a ledger that passes every integrity check and replays identically.
 */
let candles: Candle[] = [];
let report: BacktestReport;

const run = () => {
  const s = new StandInInputs("BTC");
  return runBacktest("BTC", candles.map((c) => s.next(c)));
};

beforeAll(() => {
  candles = between(loadHourlyCandles("BTC"), "2024-01-01T00:00:00Z", "2025-01-01T00:00:00Z");
  report = run();
});

describe("backtest over real BTC 2024 hourly bars", () => {
  it("covers the year and trades", () => {
    expect(candles).toHaveLength(8784);
    expect(report.bars).toBe(8784);
    expect(report.trades.length).toBeGreaterThan(10);
  });

  it("its ledger passes every integrity check and has no NaN", () => {
    const checks = integrityChecks({ closed: report.trades, unreadable: 0, open: [], cutoffs: { BTC: 0, ETH: 0, SOL: 0, TAO: 0 }, published: {} });
    expect(checks.filter((c) => !c.passed)).toEqual([]);
    expect(checks).toHaveLength(INTEGRITY_CHECKS.length);
    expect(JSON.stringify(report.stats)).not.toMatch(/NaN|Infinity/);
    expect(Object.values(report.performance).every((v) => v === null || Number.isFinite(v))).toBe(true);
  });

  it("every stop-loss fills at entry × 0.97, or at the open less slippage when the bar gaps through it", () => {
    const stops = report.trades.filter((t) => t.exitReason === "STOP_LOSS");
    expect(stops.length).toBeGreaterThan(0);
    const barAt = new Map(candles.map((c) => [c.t, c]));
    for (const t of stops) {
      const bar = barAt.get(t.exitTime);
      if (bar === undefined) throw new Error(`no bar at the exit ${t.exitTime}`);
      const stop = t.entryPrice * 0.97;
      // DEFAULT_COSTS: 0.05 % slippage on market orders, and a stop that gaps is one.
      const expected = bar.o <= stop ? bar.o * (1 - 0.0005) : stop;
      expect(t.exitPrice).toBeCloseTo(expected, 6);
      // 3 % of the price, the entry's slippage and two 0.1 % fees; a gap only adds to it.
      if (bar.o > stop) expect(t.pnlPct).toBeGreaterThan(-3.3);
      expect(t.pnlPct).toBeLessThan(-3);
    }
  });

  it("equity only moves by recorded trade P&L", () => {
    const sum = report.trades.reduce((s, t) => s + t.pnlUsd, 0);
    const open = report.finalState.position?.fills.reduce((s, f) => s + f.pnlUsd, 0) ?? 0;
    expect(report.finalState.equityUsd).toBeCloseTo(10_000 + sum + open, 2);
  });

  it("replays deterministically", () => {
    const again = run();
    expect(again.trades.map((t) => [t.id, t.pnlUsd])).toEqual(report.trades.map((t) => [t.id, t.pnlUsd]));
  });
});
