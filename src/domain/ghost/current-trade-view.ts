import { tp1Target, tp2Target, STOP_LOSS_RATIO } from "./exit-levels.js";
import { roundPct, roundUsd } from "./money.js";
import type { CostModel } from "./costs.js";
import { daysSinceHalving } from "./track-record-view.js";
import type { OpenPosition } from "./trade.js";

/**
 * Mark-to-market of an open position at `price`: realised fills (TP1) plus what selling the rest
 * now would net, exit fee included (freqtrade's "current profit" convention), so an open trade
 * never looks better than closing it would be.
 */
export function openPnlUsd(pos: OpenPosition, price: number, costs: CostModel): number {
  const realised = pos.fills.reduce((s, f) => s + f.pnlUsd, 0);
  const entryFeeShare = (pos.entryFeeUsd * pos.remaining) / pos.size;
  const unrealised = (price - pos.entryPrice) * pos.remaining - price * pos.remaining * costs.feeRate - entryFeeShare;
  return roundUsd(realised + unrealised);
}

/** SPEC "TAO status" `currentTrade`. */
export function taoCurrentTrade(pos: OpenPosition, price: number, costs: CostModel) {
  const pnlUsd = openPnlUsd(pos, price, costs);
  return {
    entryPrice: pos.entryPrice,
    sizeTao: pos.size,
    pnlUsd,
    pnlPct: roundPct((pnlUsd / (pos.entryPrice * pos.size)) * 100),
    tp1Hit: pos.tp1Hit,
    // "stored value, falling back to entryPrice × 0.97 when none"
    stopLoss: Number.isFinite(pos.stopLoss) && pos.stopLoss > 0 ? pos.stopLoss : pos.entryPrice * STOP_LOSS_RATIO,
    tp1Target: tp1Target(pos.entryPrice),
    tp2Target: tp2Target(pos.entryPrice),
    hwm: pos.hwm,
    liquidityAtEntry: pos.extras.liquidityAtEntry,
    taoBtcRatioAtEntry: pos.extras.assetBtcRatioAtEntry,
    daysSinceHalving: daysSinceHalving(pos.entryTime),
  };
}
