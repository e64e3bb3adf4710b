import type { ClosedTrade, EntryRecord, OpenPosition } from "./trade.js";

/**
 * The one rule for "does this trade count" (SPEC "Ghost Trader stats", "Regime stats"): made by
 * a Ghost Trader actor as a paper trade (not backfilled, synthetic or test), flagged valid, and
 * entered at or after the current sprint's cutoff (`since`, moved by `ghost restart`).
 */
export function counts(trade: EntryRecord & { readonly valid?: boolean }, sinceMs: number): boolean {
  return trade.origin === "live_paper" && trade.valid !== false && trade.entryTime >= sinceMs;
}

export function countedClosed(trades: readonly ClosedTrade[], sinceMs: number): ClosedTrade[] {
  return trades.filter((t) => t.valid && counts(t, sinceMs)).sort((a, b) => a.exitTime - b.exitTime || a.entryTime - b.entryTime);
}

export function countedOpen(positions: readonly OpenPosition[], sinceMs: number): OpenPosition[] {
  return positions.filter((p) => counts(p, sinceMs));
}
