import { roundPct, roundUsd } from "./money.js";
import type { ClosedTrade, ExitFill, OpenPosition } from "./trade.js";

/**
 * Turns a position whose last unit was sold into a ledger row. The trade's P&L is the sum of its
 * recorded (cent-rounded) fills, so "P&L equals the sum of the fills" holds exactly.
 */
export function closeTrade(pos: OpenPosition, last: ExitFill): ClosedTrade {
  const fills = [...pos.fills, last];
  const pnlUsd = sumPnl(fills);
  const cost = pos.entryPrice * pos.size;
  const tp1 = fills.find((f) => f.reason === "TP1");
  const { remaining: _remaining, stopLoss: _stop, tp1Hit: _tp1, hwm: _hwm, ...entry } = pos;
  return {
    ...entry,
    exitTime: last.t,
    exitPrice: last.price,
    exitReason: last.reason,
    fills,
    pnlUsd,
    pnlPct: cost > 0 ? roundPct((pnlUsd / cost) * 100) : 0,
    tp1PnlUsd: tp1 === undefined ? null : tp1.pnlUsd,
    result: pnlUsd > 0 ? "WIN" : "LOSS",
    valid: pos.origin === "live_paper",
  };
}

export function sumPnl(fills: readonly ExitFill[]): number {
  return roundUsd(fills.reduce((s, f) => s + f.pnlUsd, 0));
}
