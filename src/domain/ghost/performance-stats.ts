import { roundTo } from "../numbers/round-to.js";
import { roundUsd } from "./money.js";
import type { ClosedTrade } from "./trade.js";
import { dailyRatios } from "./daily-ratios.js";
import { longestRun } from "./longest-run.js";

/**
 * The further figures a trader expects of a track record (REFERENCES: freqtrade's report).
 * Ratios that have no meaning on the data (no losses for a profit factor, a flat curve for a
 * Sharpe) are null rather than Infinity or NaN, so JSON stays valid and nobody divides by zero.
 */
export interface PerformanceStats {
  readonly trades: number;
  readonly wins: number;
  readonly losses: number;
  readonly avgWinUsd: number;
  readonly avgLossUsd: number;
  /** Gross profit / gross loss (both positive); null without losing trades. */
  readonly profitFactor: number | null;
  /** winRate × avgWin − lossRate × avgLoss, USD per trade. */
  readonly expectancyUsd: number;
  readonly maxConsecutiveLosses: number;
  readonly maxDrawdownUsd: number;
  /** Of the equity peak it fell from, %. */
  readonly maxDrawdownPct: number;
  /** Longest time under a previous equity peak (to recovery, or to the last exit), hours. */
  readonly maxDrawdownHours: number;
  /** Daily returns annualised with √365 (crypto trades every day); null when undefined. */
  readonly sharpe: number | null;
  readonly sortino: number | null;
  /** Share of the span first entry → last exit spent in a position, %. */
  readonly exposurePct: number;
  readonly returnPct: number;
}

const DAY = 86_400_000;

export function performanceStats(trades: readonly ClosedTrade[], startingEquityUsd: number): PerformanceStats {
  const sorted = [...trades].sort((a, b) => a.exitTime - b.exitTime);
  const pnls = sorted.map((t) => t.pnlUsd);
  const winsP = pnls.filter((p) => p > 0);
  const lossesP = pnls.filter((p) => p <= 0).map((p) => -p);
  const n = pnls.length;
  const grossWin = winsP.reduce((s, p) => s + p, 0);
  const grossLoss = lossesP.reduce((s, p) => s + p, 0);
  const avgWin = winsP.length === 0 ? 0 : grossWin / winsP.length;
  const avgLoss = lossesP.length === 0 ? 0 : grossLoss / lossesP.length;
  const expectancy = n === 0 ? 0 : (winsP.length / n) * avgWin - (lossesP.length / n) * avgLoss;
  const dd = drawdown(sorted, startingEquityUsd);
  const days = pnlByDay(sorted);
  const { sharpe, sortino } = days === null ? { sharpe: null, sortino: null } : dailyRatios(days, startingEquityUsd);
  return {
    trades: n,
    wins: winsP.length,
    losses: lossesP.length,
    avgWinUsd: roundUsd(avgWin),
    avgLossUsd: roundUsd(avgLoss),
    profitFactor: grossLoss === 0 ? null : roundTo(grossWin / grossLoss, 4),
    expectancyUsd: roundUsd(expectancy),
    maxConsecutiveLosses: longestRun(pnls.map((p) => p <= 0)),
    maxDrawdownUsd: roundUsd(dd.usd),
    maxDrawdownPct: roundTo(dd.pct, 4),
    maxDrawdownHours: roundTo(dd.ms / 3_600_000, 2),
    sharpe,
    sortino,
    exposurePct: roundTo(exposure(sorted), 4),
    returnPct: roundTo((pnls.reduce((s, p) => s + p, 0) / startingEquityUsd) * 100, 4),
  };
}

/** Realised equity after each exit, starting equity first. */
export function equityCurve(trades: readonly ClosedTrade[], startingEquityUsd: number): { t: number; equity: number }[] {
  const sorted = [...trades].sort((a, b) => a.exitTime - b.exitTime);
  const curve = [{ t: sorted[0]?.entryTime ?? 0, equity: startingEquityUsd }];
  let equity = startingEquityUsd;
  for (const t of sorted) {
    equity = roundUsd(equity + t.pnlUsd);
    curve.push({ t: t.exitTime, equity });
  }
  return curve;
}

function drawdown(sorted: readonly ClosedTrade[], start: number): { usd: number; pct: number; ms: number } {
  const curve = equityCurve(sorted, start);
  let peak = curve[0] ?? { t: 0, equity: start };
  let best = { usd: 0, pct: 0, ms: 0 };
  let troughOpen = false;
  for (const p of curve) {
    if (p.equity >= peak.equity) {
      if (troughOpen) best = { ...best, ms: Math.max(best.ms, p.t - peak.t) };
      peak = p;
      troughOpen = false;
      continue;
    }
    troughOpen = true;
    const usd = peak.equity - p.equity;
    if (usd > best.usd) best = { usd, pct: (usd / peak.equity) * 100, ms: best.ms };
    best = { ...best, ms: Math.max(best.ms, p.t - peak.t) };
  }
  return best;
}

/**
 * P&L booked on each UTC day (by exit time) from the first entry to the last exit, days without
 * exits 0; null without trades. Its ratios are daily-ratios.ts's.
 */
function pnlByDay(sorted: readonly ClosedTrade[]): number[] | null {
  const first = sorted.reduce((m, t) => Math.min(m, t.entryTime), Number.POSITIVE_INFINITY);
  const last = sorted.reduce((m, t) => Math.max(m, t.exitTime), Number.NEGATIVE_INFINITY);
  if (!Number.isFinite(first)) return null;
  const day0 = Math.floor(first / DAY);
  const days = Math.floor(last / DAY) - day0 + 1;
  const pnl = new Array<number>(days).fill(0);
  for (const t of sorted) {
    const i = Math.floor(t.exitTime / DAY) - day0;
    pnl[i] = (pnl[i] ?? 0) + t.pnlUsd;
  }
  return pnl;
}

function exposure(sorted: readonly ClosedTrade[]): number {
  if (sorted.length === 0) return 0;
  const first = Math.min(...sorted.map((t) => t.entryTime));
  const last = Math.max(...sorted.map((t) => t.exitTime));
  const held = sorted.reduce((s, t) => s + (t.exitTime - t.entryTime), 0);
  return last > first ? (held / (last - first)) * 100 : 0;
}
