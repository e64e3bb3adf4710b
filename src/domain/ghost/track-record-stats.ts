import { roundTo } from "../numbers/round-to.js";
import { roundUsd } from "./money.js";
import type { ClosedTrade } from "./trade.js";

/** SPEC "Track records" stats (all assets). */
export interface TrackRecordStats {
  readonly totalTrades: number;
  /** % of trades with pnlUsd > 0, 2 decimals; 0 when there are none. */
  readonly winRate: number;
  readonly totalPnl: number;
  readonly avgHoldMinutes: number;
  /** Best and worst pnlUsd; 0 when there are no trades (SPEC types them as numbers, not null). */
  readonly bestTrade: number;
  readonly worstTrade: number;
}

/** Every figure is 0 on an empty record, never NaN: a new sprint shows zeros, not errors. */
export function trackRecordStats(trades: readonly ClosedTrade[]): TrackRecordStats {
  const n = trades.length;
  if (n === 0) return { totalTrades: 0, winRate: 0, totalPnl: 0, avgHoldMinutes: 0, bestTrade: 0, worstTrade: 0 };
  const pnls = trades.map((t) => t.pnlUsd);
  const wins = pnls.filter((p) => p > 0).length;
  const holdMinutes = trades.reduce((s, t) => s + (t.exitTime - t.entryTime) / 60_000, 0);
  return {
    totalTrades: n,
    winRate: roundTo((wins / n) * 100, 2),
    totalPnl: roundUsd(pnls.reduce((s, p) => s + p, 0)),
    avgHoldMinutes: roundTo(holdMinutes / n, 2),
    bestTrade: Math.max(...pnls),
    worstTrade: Math.min(...pnls),
  };
}
