import { describe, expect, it } from "vitest";
import { DEFAULT_COSTS, ZERO_COSTS } from "../../../src/domain/ghost/costs.js";
import { positionSize } from "../../../src/domain/ghost/position-sizing.js";
import { band, entryOutcomes, randomEntryBenchmark } from "../../../src/domain/ghost/random-entry.js";
import { STANDING_ASIDE, traderPerformance } from "../../../src/domain/ghost/trader-performance.js";
import type { ClosedTrade, ExitFill, OpenPosition } from "../../../src/domain/ghost/trade.js";
import type { Candle } from "../../../src/domain/signals/reading.js";
import { D0, DAY, trade } from "./ledger-fixture.js";

const H = 3_600_000;

/* Hand ledger of stats.test.ts: +50, −20, −30, +100 on days 0–3, held 2, 4, 6 and 8 h, size 1 at 100, no fees. */
const ledger = [
  trade({ exit: 150, entryTime: D0, holdHours: 2 }),
  trade({ exit: 80, entryTime: D0 + DAY, holdHours: 4 }),
  trade({ exit: 70, entryTime: D0 + 2 * DAY, holdHours: 6 }),
  trade({ exit: 200, entryTime: D0 + 3 * DAY, holdHours: 8 }),
];
/** 96 hourly bars from 100 to 110 that never reach a take-profit or a stop (flat-ish drift). */
const drift: Candle[] = Array.from({ length: 96 }, (_, i) => {
  const o = 100 + (10 * i) / 96;
  const c = 100 + (10 * (i + 1)) / 96;
  return { t: D0 + i * H, o, h: c, l: o, c, v: 1 };
});

describe("trader performance over a span (freqtrade's figures)", () => {
  const p = traderPerformance({ trades: ledger, candles: drift, from: D0, to: D0 + 4 * DAY, startingEquityUsd: 10_000, costs: ZERO_COSTS, openPositions: 0, openPosition: null, draws: 200 });

  it("trade figures", () => {
    expect(p.standingAside).toBe(false);
    expect(p.note).toBeNull();
    expect([p.trades, p.wins, p.losses, p.winRatePct]).toEqual([4, 2, 2, 50]);
    expect([p.avgWinUsd, p.avgLossUsd, p.profitFactor, p.expectancyUsd]).toEqual([75, 25, 3, 25]);
    expect(p.expectancyPct).toBe(25);
    expect(p.totalPnlUsd).toBe(100);
    expect(p.returnPct).toBe(1);
    expect(p.maxConsecutiveLosses).toBe(2);
    expect(p.feesUsd).toBe(0);
  });

  it("drawdown peak → trough with dates, exposure over the whole span, CAGR and Calmar", () => {
    // Equity 10050 after day 0 (+2 h) falls to 10000 at day 2 + 6 h: 50 USD, 52 h.
    expect(p.maxDrawdown).toEqual({
      usd: 50,
      pct: Math.round((50 / 10_050) * 100 * 1e4) / 1e4,
      hours: 52,
      start: new Date(D0 + 2 * H).toISOString(),
      end: new Date(D0 + 2 * DAY + 6 * H).toISOString(),
    });
    expect(p.exposurePct).toBeCloseTo((20 / 96) * 100, 3);
    // Four days are too short to annualise (MIN_CAGR_SPAN_DAYS); the same ledger over 30 days is not.
    expect([p.cagrPct, p.calmar]).toEqual([null, null]);
    const month = traderPerformance({ trades: ledger, candles: drift, from: D0, to: D0 + 30 * DAY, startingEquityUsd: 10_000, costs: ZERO_COSTS, openPositions: 0, openPosition: null, draws: 200 });
    const cagr = (10_100 / 10_000) ** (365 / 30) - 1;
    expect(month.cagrPct).toBeCloseTo(cagr * 100, 2);
    expect(month.calmar).toBeCloseTo(cagr / (50 / 10_050), 2);
  });

  it("daily Sharpe/Sortino with √365, best and worst day, groups", () => {
    const r = [50 / 10_000, -20 / 10_050, -30 / 10_030, 100 / 10_000];
    const mean = r.reduce((s, x) => s + x, 0) / 4;
    const sd = Math.sqrt(r.reduce((s, x) => s + (x - mean) ** 2, 0) / 3);
    expect(p.sharpe).toBeCloseTo((mean / sd) * Math.sqrt(365), 3);
    expect(p.bestDay).toEqual({ date: "2024-01-04", pnlUsd: 100 });
    expect(p.worstDay).toEqual({ date: "2024-01-03", pnlUsd: -30 });
    expect(p.byYear).toEqual([{ key: "2024", trades: 4, wins: 2, winRatePct: 50, pnlUsd: 100, avgPnlPct: 25 }]);
    expect(p.byExitReason.map((g) => [g.key, g.trades])).toEqual([["STOP_LOSS", 2], ["TP2", 2]]);
    expect(p.byEntryMode.map((g) => [g.key, g.trades])).toEqual([["A", 4]]);
  });

  it("buy & hold scaled by the capital the trader kept in the market", () => {
    const bh = p.benchmarks.buyAndHold!;
    expect(bh.returnPct).toBeCloseTo(10, 6);
    // Σ notional × hold = 100 USD × 20 h against 10,000 USD × 96 h.
    expect(bh.capitalExposurePct).toBeCloseTo(((100 * 20) / (10_000 * 96)) * 100, 4);
    expect(bh.scaledReturnPct).toBeCloseTo(10 * ((100 * 20) / (10_000 * 96)), 4);
  });

  it("costs cut buy & hold: both fills pay fee and slippage", () => {
    const q = traderPerformance({ trades: [], candles: drift, from: D0, to: D0 + 4 * DAY, startingEquityUsd: 10_000, costs: DEFAULT_COSTS, openPositions: 0, openPosition: null });
    expect(q.benchmarks.buyAndHold!.returnPct).toBeCloseTo(((110 * 0.9995 * 0.999) / (100 * 1.0005 * 1.001) - 1) * 100, 4);
  });

  it("no trades: says it stands aside, zero trades, benchmarks still computed with a reason for what is not", () => {
    const q = traderPerformance({ trades: [], candles: drift, from: D0, to: D0 + 4 * DAY, startingEquityUsd: 10_000, costs: ZERO_COSTS, openPositions: 0, openPosition: null });
    expect(q.standingAside).toBe(true);
    expect(q.note).toBe(STANDING_ASIDE);
    expect(q.trades).toBe(0);
    expect(q.profitFactor).toBeNull();
    expect(q.bestDay).toBeNull();
    expect(q.benchmarks.buyAndHold!.scaledReturnPct).toBe(0);
    expect(Object.values(q).every((v) => v === null || typeof v !== "number" || Number.isFinite(v))).toBe(true);
    const open = traderPerformance({ trades: [], candles: [], from: D0, to: D0 + DAY, startingEquityUsd: 10_000, costs: ZERO_COSTS, openPositions: 1, openPosition: null });
    expect(open.standingAside).toBe(false);
    expect(open.benchmarks.buyAndHold).toBeNull();
    expect(open.benchmarks.note).toMatch(/no hourly candles/);
  });
});

/** `hours` flat hourly bars from `from`, so buy & hold (and the capital exposure) is computed. */
const flat = (from: number, hours: number): Candle[] => Array.from({ length: hours }, (_, i) => ({ t: from + i * H, o: 100, h: 100.1, l: 99.9, c: 100, v: 1 }));
const over = (trades: readonly ClosedTrade[], openPosition: OpenPosition | null, from: number, hours: number) =>
  traderPerformance({ trades, candles: flat(from, hours), from, to: from + hours * H, startingEquityUsd: 10_000, costs: ZERO_COSTS, openPositions: openPosition === null ? 0 : 1, openPosition });
const tp1Fill = (t: number): ExitFill => ({ t, price: 102, size: 1, reason: "TP1", feeUsd: 0, pnlUsd: 2 });

describe("a trade entered in the span and closed after it ends", () => {
  it("reaches the daily returns, best and worst day as it reaches the total", () => {
    // +100 on day 1; a trade entered on day 9 loses 150 when it exits on day 11, past a 10-day span.
    const ledger = [trade({ exit: 200, entryTime: D0 + DAY, holdHours: 2 }), trade({ exit: 50, size: 3, entryTime: D0 + 9 * DAY, holdHours: 50 })];
    const p = over(ledger, null, D0, 240);
    expect(p.totalPnlUsd).toBe(-50);
    expect(p.worstDay).toEqual({ date: new Date(D0 + 11 * DAY).toISOString().slice(0, 10), pnlUsd: -150 });
    expect(p.bestDay).toEqual({ date: new Date(D0 + DAY).toISOString().slice(0, 10), pnlUsd: 100 });
    expect(p.sharpe).toBeLessThan(0);
  });
});

describe("capital exposure: the units the trader held, inside the span", () => {
  it("after the TP1 half-close only the half still held counts", () => {
    // 2 units at 100; TP1 sells 1 in the entry bar, the other leaves at break-even 100 h later.
    const base = trade({ exit: 100, entryTime: D0, holdHours: 100, size: 2 });
    const last = { ...base.fills[0]!, size: 1, reason: "BREAK_EVEN_STOP" as const };
    const tp1Trade: ClosedTrade = { ...base, fills: [tp1Fill(D0), last], exitReason: "BREAK_EVEN_STOP", pnlUsd: 2 };
    const bh = over([tp1Trade], null, D0, 101).benchmarks.buyAndHold!;
    // 100 USD × 100 h against 10,000 USD × 101 h (charging the whole 200 USD said twice that).
    expect(bh.capitalExposurePct).toBeCloseTo(((100 * 100) / (10_000 * 101)) * 100, 4);
  });

  it("a trade entered before the span counts only its hours inside it", () => {
    const straddling = trade({ exit: 101, entryTime: D0 - 50 * H, holdHours: 100 });
    const p = over([straddling], null, D0, 100);
    expect(p.exposurePct).toBe(50);
    expect(p.benchmarks.buyAndHold!.capitalExposurePct).toBeCloseTo(((100 * 50) / (10_000 * 100)) * 100, 4);
  });

  it("bars that start after the span does: buy & hold over the span they cover, scaled by the capital held in it, and said so", () => {
    // A 10-day sprint; the feed holds only its last 4 days (a live feed keeps a bounded window).
    // One trade of 100 USD held 48 h on days 1–3 (before the bars), one held 24 h on day 8.
    const early = trade({ exit: 101, entryTime: D0 + DAY, holdHours: 48 });
    const late = trade({ exit: 101, entryTime: D0 + 8 * DAY, holdHours: 24 });
    const p = traderPerformance({ trades: [early, late], candles: flat(D0 + 6 * DAY, 96), from: D0, to: D0 + 10 * DAY, startingEquityUsd: 10_000, costs: ZERO_COSTS, openPositions: 0, openPosition: null });
    // The trader's own exposure still covers its whole sprint: 72 h of 240.
    expect(p.exposurePct).toBe(30);
    // The benchmark's: 100 USD × 24 h against 10,000 USD × 96 h, the 4 days the bars cover.
    expect(p.benchmarks.buyAndHold!.capitalExposurePct).toBeCloseTo(((100 * 24) / (10_000 * 96)) * 100, 4);
    expect(p.benchmarks.note).toContain(`benchmarks cover ${new Date(D0 + 6 * DAY).toISOString()} to ${new Date(D0 + 10 * DAY).toISOString()} only`);
    // Bars from the span's start: no such note.
    expect(over([late], null, D0, 240).benchmarks.note).toBeNull();
  });

  it("bars that stop before the span ends (TAO's history ends): benchmarks over the bars' span, and said so", () => {
    // A 10-day sprint whose bars end after day 4; one trade of 100 USD held 24 h on day 2.
    const held = trade({ exit: 101, entryTime: D0 + 2 * DAY, holdHours: 24 });
    const p = traderPerformance({ trades: [held], candles: flat(D0, 96), from: D0, to: D0 + 10 * DAY, startingEquityUsd: 10_000, costs: ZERO_COSTS, openPositions: 0, openPosition: null });
    expect(p.exposurePct).toBe(10);
    expect(p.benchmarks.buyAndHold!.capitalExposurePct).toBeCloseTo(((100 * 24) / (10_000 * 96)) * 100, 4);
    expect(p.benchmarks.note).toContain(`benchmarks cover ${new Date(D0).toISOString()} to ${new Date(D0 + 4 * DAY).toISOString()} only: no hourly bars after it are available`);
    // A last bar closed 2 h before the span's end is current, not a gap.
    expect(traderPerformance({ trades: [held], candles: flat(D0, 94), from: D0, to: D0 + 4 * DAY, startingEquityUsd: 10_000, costs: ZERO_COSTS, openPositions: 0, openPosition: null }).benchmarks.note).toBeNull();
  });

  it("the open position counts from its entry to the span end, with the units it still holds", () => {
    // 10-day span, nothing closed; 2 units at 100 entered on day 5, TP1 sold 1 on day 7, still open.
    const { exitTime: _x, exitPrice: _p, exitReason: _r, pnlUsd: _u, pnlPct: _c, tp1PnlUsd: _t, result: _s, valid: _v, ...entry } = trade({ exit: 100, entryTime: D0 + 5 * DAY, holdHours: 1, size: 2 });
    const open: OpenPosition = { ...entry, remaining: 1, stopLoss: 100, tp1Hit: true, hwm: 102, fills: [tp1Fill(D0 + 7 * DAY)] };
    const p = over([], open, D0, 240);
    expect(p.standingAside).toBe(false);
    expect(p.exposurePct).toBe(50);
    // 200 USD × 2 days + 100 USD × 3 days against 10,000 USD × 10 days.
    expect(p.benchmarks.buyAndHold!.capitalExposurePct).toBeCloseTo(((200 * 2 + 100 * 3) / (10_000 * 10)) * 100, 4);
    expect(p.benchmarks.buyAndHold!.scaledReturnPct).toBeCloseTo(p.benchmarks.buyAndHold!.returnPct * 0.007, 4);
  });
});

describe("max drawdown: the largest % fall is not always the largest USD fall", () => {
  it("reports the largest relative fall with its own dates, and Calmar divides by it", () => {
    // 10,000 → 9,700 (−300, 3 %), up to 12,300, then → 11,980 (−320 USD but only 2.60 %).
    const ledger = [
      trade({ exit: 70, size: 10, entryTime: D0, holdHours: 2 }),
      trade({ exit: 360, size: 10, entryTime: D0 + DAY, holdHours: 2 }),
      trade({ exit: 68, size: 10, entryTime: D0 + 2 * DAY, holdHours: 2 }),
    ];
    const p = over(ledger, null, D0, 30 * 24);
    expect(p.maxDrawdown).toMatchObject({ usd: 320, pct: 2.6016, start: new Date(D0 + DAY + 2 * H).toISOString() });
    expect(p.maxRelativeDrawdown).toEqual({ usd: 300, pct: 3, hours: 2, start: new Date(D0).toISOString(), end: new Date(D0 + 2 * H).toISOString() });
    const cagr = (11_980 / 10_000) ** (365 / 30) - 1;
    expect(p.calmar).toBeCloseTo(cagr / 0.03, 0);
  });
});

describe("random entry with the trader's exits and costs", () => {
  const size = positionSize(10_000, 100, 97);
  /** Even bars reach TP1 and TP2 inside the bar; odd bars fall through the stop. */
  const zigzag: Candle[] = Array.from({ length: 40 }, (_, i) =>
    i % 2 === 0 ? { t: D0 + i * H, o: 100, h: 105, l: 99.5, c: 100, v: 1 } : { t: D0 + i * H, o: 100, h: 100.5, l: 96, c: 100, v: 1 },
  );

  it("every bar is an entry at its open, run through the same exit rules", () => {
    const out = entryOutcomes(zigzag, ZERO_COSTS, 10_000);
    expect(out).toHaveLength(40);
    const half = Math.floor((size / 2) * 1e8) / 1e8;
    const win = Math.round((2 * half + 4.5 * (size - half)) * 100) / 100;
    const loss = Math.round(-3 * size * 100) / 100;
    expect(out.filter((o) => o.pnlUsd > 0).every((o) => o.pnlUsd === win)).toBe(true);
    expect(out.filter((o) => o.pnlUsd <= 0).every((o) => o.pnlUsd === loss)).toBe(true);
    expect(out.filter((o) => o.pnlUsd > 0)).toHaveLength(20);
  });

  it("an entry whose exit the span never reaches is marked to market at the last close, not left out", () => {
    // Ten quiet bars at 100: no entry reaches a stop, a target or the 7-day exit. Leaving them out
    // (as this used to) kept only the quick exits near a span's end; each is sold at the last
    // close instead, paying slippage and the fee as a market exit does.
    const quiet = flat(D0, 10);
    const out = entryOutcomes(quiet, DEFAULT_COSTS, 10_000);
    expect(out).toHaveLength(10);
    const entryPrice = 100 * 1.0005;
    const units = positionSize(10_000, entryPrice, entryPrice * 0.97);
    const entryFee = Math.round(entryPrice * units * 0.001 * 100) / 100;
    const pnl = (100 * 0.9995 - entryPrice) * units - 100 * 0.9995 * units * 0.001 - entryFee;
    for (const o of out) {
      expect(o.exitTime).toBe(D0 + 10 * H);
      expect(o.pnlUsd).toBeCloseTo(pnl, 2);
      expect(o.markedToMarket).toBe(true);
    }
    const p = over([], null, D0, 10);
    expect(p.benchmarks.randomEntry!.everyEntry).toMatchObject({ entries: 10, winRatePct: 0 });
    expect(randomEntryBenchmark([], 5)).toBeNull();
  });

  it("seeded draws of the trader's trade count: mean and 90 % band, reproducible", () => {
    const out = entryOutcomes(zigzag, DEFAULT_COSTS, 10_000);
    const a = randomEntryBenchmark(out, 20, 500, 7)!;
    expect(a).toEqual(randomEntryBenchmark(out, 20, 500, 7));
    expect(a.everyEntry.winRatePct).toBe(50);
    const m = a.matched!;
    expect(m.winRatePct.p5).toBeLessThan(m.winRatePct.mean);
    expect(m.winRatePct.p95).toBeGreaterThan(m.winRatePct.mean);
    expect(Math.abs(m.winRatePct.mean - 50)).toBeLessThan(3);
    expect(m.expectancyUsd.mean).toBeCloseTo(a.everyEntry.expectancyUsd, 0);
    // The sizing-free band a trader's expectancyPct is judged against: same draws, in % of position cost.
    expect(m.expectancyPct.mean).toBeCloseTo(a.everyEntry.expectancyPct, 1);
    expect(m.expectancyPct.p5).toBeLessThan(m.expectancyPct.p95);
    const none = randomEntryBenchmark(out, 0)!;
    expect(none.matched).toBeNull();
    expect(none.note).toMatch(/no trades/);
    // A reader of the dashboard sees this note verbatim: it names no JSON field.
    expect(none.note).not.toMatch(/[a-z][A-Z]/);
  });

  it("band: nearest-rank 5th and 95th percentiles", () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(band(xs, 2)).toEqual({ mean: 50.5, p5: 5, p95: 95 });
  });
});

describe("random entry: profit factor band with few trades per draw", () => {
  it("has no profit-factor band when many draws have no losing trade", () => {
    const outcomes = Array.from({ length: 100 }, (_, i) => ({ entryTime: i, exitTime: i + 1, pnlUsd: i % 3 === 0 ? -10 : 10, pnlPct: 0 }));
    const one = randomEntryBenchmark(outcomes, 1, 500, 3)!;
    expect(one.matched!.profitFactor).toBeNull();
    expect(one.matched!.expectancyUsd.mean).toBeGreaterThan(0);
    const many = randomEntryBenchmark(outcomes, 60, 500, 3)!;
    expect(many.matched!.profitFactor!.mean).toBeCloseTo(2, 0);
  });
});
