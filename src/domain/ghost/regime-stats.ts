import type { Regime } from "../market/vocabulary.js";
import { roundTo } from "../numbers/round-to.js";
import { roundUsd } from "./money.js";
import type { ClosedTrade } from "./trade.js";

/** SPEC "Regime stats" item. */
export interface RegimeStatsItem {
  readonly regime: Regime;
  readonly trades: number;
  readonly wins: number;
  readonly losses: number;
  readonly win_rate: number;
  readonly avg_pnl_pct: number;
  readonly avg_hold_hours: number;
  readonly total_pnl_usd: number;
}

export interface RegimeStats {
  readonly regimes: readonly RegimeStatsItem[];
  readonly best_regime: Regime | null;
  readonly worst_regime: Regime | null;
  readonly total_trades: number;
  readonly overall_win_rate: number;
}

/**
 * Groups counted closed trades (all assets) by their regime at entry. Trades entered without a
 * known regime are in the totals but in no group. Sorted by win rate, then trades, then name, so
 * ties sort the same way on every call; best/worst are the first and last of that order.
 */
export function regimeStats(trades: readonly ClosedTrade[]): RegimeStats {
  const groups = new Map<Regime, ClosedTrade[]>();
  for (const t of trades) {
    if (t.regimeAtEntry === null) continue;
    const g = groups.get(t.regimeAtEntry) ?? [];
    g.push(t);
    groups.set(t.regimeAtEntry, g);
  }
  const items: RegimeStatsItem[] = [...groups.entries()].map(([regime, g]) => {
    const wins = g.filter((t) => t.pnlUsd > 0).length;
    return {
      regime,
      trades: g.length,
      wins,
      losses: g.length - wins,
      win_rate: roundTo((wins / g.length) * 100, 2),
      avg_pnl_pct: roundTo(g.reduce((s, t) => s + t.pnlPct, 0) / g.length, 4),
      avg_hold_hours: roundTo(g.reduce((s, t) => s + (t.exitTime - t.entryTime), 0) / g.length / 3_600_000, 2),
      total_pnl_usd: roundUsd(g.reduce((s, t) => s + t.pnlUsd, 0)),
    };
  });
  items.sort((a, b) => b.win_rate - a.win_rate || b.trades - a.trades || a.regime.localeCompare(b.regime));
  const wins = trades.filter((t) => t.pnlUsd > 0).length;
  return {
    regimes: items,
    best_regime: items[0]?.regime ?? null,
    worst_regime: items[items.length - 1]?.regime ?? null,
    total_trades: trades.length,
    overall_win_rate: trades.length === 0 ? 0 : roundTo((wins / trades.length) * 100, 2),
  };
}
