import type { Candle } from "../signals/reading.js";
import { feeUsd, marketSellPrice, type CostModel } from "./costs.js";
import { MAX_HOLD_MS, TP1_CLOSE_FRACTION, ratchetStop, tp1Target, tp2Target } from "./exit-levels.js";
import { closeTrade } from "./close-trade.js";
import { floorSize, roundUsd } from "./money.js";
import type { ClosedTrade, ExitFill, FillReason, OpenPosition } from "./trade.js";

const HOUR = 3_600_000;

/** What one bar did to an open position: still open (`position`) or closed (`closed`). */
export interface ExitStep {
  readonly position: OpenPosition | null;
  readonly closed: ClosedTrade | null;
  /** Fills made during this bar, in order. */
  readonly fills: readonly ExitFill[];
  /** True when the stop or the high-water mark moved (the actor persists on every ratchet). */
  readonly ratcheted: boolean;
}

/**
 * Applies one closed bar to an open position. OHLC bars hide the order of prices inside the bar,
 * so the order is fixed and pessimistic:
 *  1. the stop known at the bar's open is checked first: a bar opening through it fills at the
 *     open less slippage (gap), a bar trading through it fills at the stop itself;
 *  2. then the take-profits: TP1 sells half and moves the stop to break-even, TP2 sells the
 *     rest; a bar opening above a target fills at the (better) open;
 *  3. then the high-water mark and trailing stop move with the bar's high; a stop raised by this
 *     bar protects from the next bar on (we cannot know whether the high came before the low);
 *  4. a position still open at the close after MAX_HOLD_MS is sold at the close (time exit).
 */
export function applyBar(pos: OpenPosition, bar: Candle, costs: CostModel): ExitStep {
  const closeTime = bar.t + HOUR;
  const fills: ExitFill[] = [];
  let current = pos;

  if (bar.l <= current.stopLoss) {
    const gap = bar.o <= current.stopLoss;
    const price = gap ? marketSellPrice(bar.o, costs) : current.stopLoss;
    return finish(current, fills, exitFill(current, bar.t, price, current.remaining, stopReason(current), costs), false);
  }

  let ratcheted = false;
  const tp1 = tp1Target(current.entryPrice);
  const tp2 = tp2Target(current.entryPrice);
  if (!current.tp1Hit && bar.h >= tp1) {
    const half = floorSize(current.size * TP1_CLOSE_FRACTION);
    const fill = exitFill(current, bar.t, Math.max(tp1, bar.o), half, "TP1", costs);
    fills.push(fill);
    current = {
      ...current,
      remaining: floorSize(current.remaining - half),
      tp1Hit: true,
      stopLoss: Math.max(current.stopLoss, current.entryPrice),
      hwm: bar.h,
      fills: [...current.fills, fill],
    };
    ratcheted = true;
  }
  if (current.tp1Hit && bar.h >= tp2) {
    return finish(current, fills, exitFill(current, bar.t, Math.max(tp2, bar.o), current.remaining, "TP2", costs), ratcheted);
  }
  if (current.tp1Hit) {
    const hwm = Math.max(current.hwm ?? bar.h, bar.h);
    const stopLoss = ratchetStop(current.stopLoss, hwm, current.entryPrice);
    if (hwm !== current.hwm || stopLoss !== current.stopLoss) {
      current = { ...current, hwm, stopLoss };
      ratcheted = true;
    }
  }
  if (closeTime - current.entryTime >= MAX_HOLD_MS) {
    return finish(current, fills, closeFill(current, bar, "TIME_EXIT", costs), ratcheted);
  }
  return { position: current, closed: null, fills, ratcheted };
}

function finish(pos: OpenPosition, earlier: readonly ExitFill[], last: ExitFill, ratcheted: boolean): ExitStep {
  return { position: null, closed: closeTrade(pos, last), fills: [...earlier, last], ratcheted };
}

function stopReason(pos: OpenPosition): FillReason {
  if (!pos.tp1Hit) return "STOP_LOSS";
  return pos.stopLoss > pos.entryPrice ? "TRAILING_STOP" : "BREAK_EVEN_STOP";
}

/**
 * Sells what is left of `pos` at `bar`'s close as a market order (slippage and fee). Stamped at
 * the close, not the bar's open: the sale happens at the close, so its time is known (a time exit
 * stamped at the open was booked an hour early: 167 h held instead of 168).
 */
export function closeFill(pos: OpenPosition, bar: Candle, reason: FillReason, costs: CostModel): ExitFill {
  return exitFill(pos, bar.t + HOUR, marketSellPrice(bar.c, costs), pos.remaining, reason, costs);
}

/**
 * The open time of the bar a trade closed on. A time exit sells at the bar's close and is stamped
 * there (`closeFill`); every other exit is stamped at its bar's open. Time exits stored before the
 * close stamp read an hour early here, which only ever places them further in the past.
 */
export function exitBarOf(trade: ClosedTrade): number {
  return trade.exitReason === "TIME_EXIT" ? trade.exitTime - HOUR : trade.exitTime;
}

/** Net P&L of selling `size` units: gross − this fill's fee − the entry fee's share of `size`. */
function exitFill(
  pos: OpenPosition,
  t: number,
  price: number,
  size: number,
  reason: FillReason,
  costs: CostModel,
): ExitFill {
  const fee = feeUsd(price, size, costs);
  const entryFeeShare = (pos.entryFeeUsd * size) / pos.size;
  const pnl = (price - pos.entryPrice) * size - fee - entryFeeShare;
  // Intrabar fills (stops, take-profits) are stamped at the bar's open time: the ledger cannot
  // know the minute inside the bar. A sale at the close is stamped by `closeFill`.
  return { t, price, size, reason, feeUsd: roundUsd(fee), pnlUsd: roundUsd(pnl) };
}
