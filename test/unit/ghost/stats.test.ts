import { describe, expect, it } from "vitest";
import { ghostStatsFigures, paperModeAfterSignoff, paperTradesValidated, sprintNumber } from "../../../src/domain/ghost/ghost-stats.js";
import { performanceStats } from "../../../src/domain/ghost/performance-stats.js";
import { regimeStats } from "../../../src/domain/ghost/regime-stats.js";
import { trackRecordStats } from "../../../src/domain/ghost/track-record-stats.js";
import { countedClosed } from "../../../src/domain/ghost/trade-validity.js";
import { D0, DAY, trade } from "./ledger-fixture.js";

/*
 * Hand ledger, starting equity 10,000 USD, size 1 unit, no fees:
 *   day 0  +50  (100 → 150, 2 h, BULL_TRENDING)
 *   day 1  −20  (100 → 80,  4 h, BULL_TRENDING)
 *   day 2  −30  (100 → 70,  6 h, RISK_ON)
 *   day 3  +100 (100 → 200, 8 h, RISK_ON)
 * win rate 50 %; total +100; avg hold 5 h = 300 min; best 100, worst −30
 * profit factor 150 / 50 = 3; expectancy 0.5 × 75 − 0.5 × 25 = 25
 * equity 10000 → 10050 → 10030 → 10000 → 10100: max drawdown 50 USD from 10050 = 0.4975 %,
 * under the peak from day 0 +2 h to day 3 +8 h = 78 h; max consecutive losses 2.
 */
const ledger = [
  trade({ exit: 150, entryTime: D0, holdHours: 2, regime: "BULL_TRENDING" }),
  trade({ exit: 80, entryTime: D0 + DAY, holdHours: 4, regime: "BULL_TRENDING" }),
  trade({ exit: 70, entryTime: D0 + 2 * DAY, holdHours: 6, regime: "RISK_ON" }),
  trade({ exit: 200, entryTime: D0 + 3 * DAY, holdHours: 8, regime: "RISK_ON" }),
];

describe("track-record stats on a hand-computed ledger", () => {
  it("SPEC fields", () => {
    expect(trackRecordStats(ledger)).toEqual({
      totalTrades: 4,
      winRate: 50,
      totalPnl: 100,
      avgHoldMinutes: 300,
      bestTrade: 100,
      worstTrade: -30,
    });
  });

  it("profit factor, expectancy, drawdown, runs", () => {
    const p = performanceStats(ledger, 10_000);
    expect(p.profitFactor).toBe(3);
    expect(p.expectancyUsd).toBe(25);
    expect(p.avgWinUsd).toBe(75);
    expect(p.avgLossUsd).toBe(25);
    expect(p.maxDrawdownUsd).toBe(50);
    expect(p.maxDrawdownPct).toBeCloseTo((50 / 10_050) * 100, 4);
    expect(p.maxDrawdownHours).toBe(78);
    expect(p.maxConsecutiveLosses).toBe(2);
    expect(p.returnPct).toBe(1);
  });

  it("Sharpe and Sortino from daily returns, annualised with √365", () => {
    // daily returns: 50/10000, −20/10050, −30/10030, 100/10000
    const r = [50 / 10_000, -20 / 10_050, -30 / 10_030, 100 / 10_000];
    const mean = r.reduce((s, x) => s + x, 0) / 4;
    const sd = Math.sqrt(r.reduce((s, x) => s + (x - mean) ** 2, 0) / 3);
    const dd = Math.sqrt(r.reduce((s, x) => s + Math.min(0, x) ** 2, 0) / 4);
    const p = performanceStats(ledger, 10_000);
    expect(p.sharpe).toBeCloseTo((mean / sd) * Math.sqrt(365), 3);
    expect(p.sortino).toBeCloseTo((mean / dd) * Math.sqrt(365), 3);
  });

  it("an empty record is all zeros and nulls, never NaN", () => {
    expect(trackRecordStats([])).toEqual({ totalTrades: 0, winRate: 0, totalPnl: 0, avgHoldMinutes: 0, bestTrade: 0, worstTrade: 0 });
    const p = performanceStats([], 10_000);
    expect(p.profitFactor).toBeNull();
    expect(p.sharpe).toBeNull();
    expect(JSON.stringify(p)).not.toMatch(/NaN|null.*Infinity/);
    expect(Object.values(p).every((v) => v === null || Number.isFinite(v))).toBe(true);
  });

  it("a break-even trade is a LOSS (SPEC: WIN only when P&L > 0)", () => {
    const flat = trade({ exit: 100, entryTime: D0, holdHours: 1 });
    expect(flat.result).toBe("LOSS");
    expect(trackRecordStats([flat]).winRate).toBe(0);
  });
});

describe("regime stats", () => {
  it("groups by regime at entry, sorted by win rate", () => {
    const s = regimeStats(ledger);
    expect(s.total_trades).toBe(4);
    expect(s.overall_win_rate).toBe(50);
    expect(s.regimes).toEqual([
      { regime: "RISK_ON", trades: 2, wins: 1, losses: 1, win_rate: 50, avg_pnl_pct: 35, avg_hold_hours: 7, total_pnl_usd: 70 },
      { regime: "BULL_TRENDING", trades: 2, wins: 1, losses: 1, win_rate: 50, avg_pnl_pct: 15, avg_hold_hours: 3, total_pnl_usd: 30 },
    ].sort((a, b) => a.regime.localeCompare(b.regime)));
    expect(regimeStats([]).best_regime).toBeNull();
  });
});

describe("validity, ghost stats, sign-off", () => {
  const since = D0 + DAY;
  const mixed = [
    ...ledger,
    trade({ exit: 500, entryTime: D0 + 4 * DAY, holdHours: 1, origin: "backfill" }),
    trade({ exit: 500, entryTime: D0 + 4 * DAY, holdHours: 1, origin: "synthetic" }),
    trade({ exit: 500, entryTime: D0 + 4 * DAY, holdHours: 1, origin: "test" }),
  ];

  it("only live paper trades since the cutoff count", () => {
    expect(countedClosed(mixed, since).map((t) => t.pnlUsd)).toEqual([-20, -30, 100]);
    expect(ghostStatsFigures(mixed, [], since)).toEqual({ validated_trades: 3, total_pnl: 50, win_rate: 33.33 });
    expect(ghostStatsFigures([], [], since)).toEqual({ validated_trades: 0, total_pnl: 0, win_rate: 0 });
  });

  it("paperMode flips only with 10 validated TAO closes and a sign-off", () => {
    const tao = Array.from({ length: 10 }, (_, i) => trade({ asset: "TAO", exit: 101, entryTime: D0 + i * DAY, holdHours: 1 }));
    expect(paperTradesValidated(tao.slice(0, 9), D0)).toBe(9);
    expect(paperTradesValidated(tao, D0)).toBe(10);
    expect(paperModeAfterSignoff(9, true)).toBe(true);
    expect(paperModeAfterSignoff(10, false)).toBe(true);
    expect(paperModeAfterSignoff(10, true)).toBe(false);
    expect(sprintNumber(0)).toBe(1);
    expect(sprintNumber(2)).toBe(3);
  });
});
