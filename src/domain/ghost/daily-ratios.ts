import { roundTo } from "../numbers/round-to.js";

export interface DailyRatios {
  readonly sharpe: number | null;
  readonly sortino: number | null;
}

/**
 * Sharpe and Sortino of the daily returns of realised equity: each day's booked P&L divided by
 * the equity at that day's start (`equity0` on the first day). Sharpe = mean / sample standard
 * deviation × √365; Sortino = mean / downside deviation (root mean square of the negative days
 * over all days) × √365; risk-free rate 0. Null where fewer than two days or no dispersion.
 */
export function dailyRatios(pnlByDay: readonly number[], equity0: number): DailyRatios {
  const returns: number[] = [];
  let equity = equity0;
  for (const p of pnlByDay) {
    returns.push(p / equity);
    equity += p;
  }
  if (returns.length < 2) return { sharpe: null, sortino: null };
  const mean = returns.reduce((s, r) => s + r, 0) / returns.length;
  const sd = Math.sqrt(returns.reduce((s, r) => s + (r - mean) ** 2, 0) / (returns.length - 1));
  const downside = Math.sqrt(returns.reduce((s, r) => s + Math.min(r, 0) ** 2, 0) / returns.length);
  return {
    sharpe: sd > 0 ? roundTo((mean / sd) * Math.sqrt(365), 4) : null,
    sortino: downside > 0 ? roundTo((mean / downside) * Math.sqrt(365), 4) : null,
  };
}
