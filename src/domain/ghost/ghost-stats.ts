import { roundTo } from "../numbers/round-to.js";
import { roundUsd } from "./money.js";
import { countedClosed, countedOpen } from "./trade-validity.js";
import type { ClosedTrade, OpenPosition } from "./trade.js";

/** SPEC "Ghost Trader stats" minus `since`'s formatting and `tests_passing` (from the ledger). */
export interface GhostStatsFigures {
  /** Counted trades, open positions included. */
  readonly validated_trades: number;
  readonly total_pnl: number;
  readonly win_rate: number;
}

export function ghostStatsFigures(
  closed: readonly ClosedTrade[],
  open: readonly OpenPosition[],
  sinceMs: number,
): GhostStatsFigures {
  const c = countedClosed(closed, sinceMs);
  const wins = c.filter((t) => t.pnlUsd > 0).length;
  return {
    validated_trades: c.length + countedOpen(open, sinceMs).length,
    total_pnl: roundUsd(c.reduce((s, t) => s + t.pnlUsd, 0)),
    win_rate: c.length === 0 ? 0 : roundTo((wins / c.length) * 100, 2),
  };
}

/** Sprint number of DECISIONS 4: 1 + the clean-slate restarts so far. */
export function sprintNumber(restartCount: number): number {
  return 1 + Math.max(0, Math.trunc(restartCount));
}

/** TAO sign-off (SPEC "TAO paperMode"): closed counted paper trades, capped at the target 10. */
export const PAPER_VALIDATION_TARGET = 10;

export function paperTradesValidated(closed: readonly ClosedTrade[], sinceMs: number): number {
  return Math.min(PAPER_VALIDATION_TARGET, countedClosed(closed, sinceMs).filter((t) => t.asset === "TAO").length);
}

/** paperMode flips to false only with both the 10 closes and an operator's explicit sign-off. */
export function paperModeAfterSignoff(validated: number, signedOff: boolean): boolean {
  return !(validated >= PAPER_VALIDATION_TARGET && signedOff);
}
