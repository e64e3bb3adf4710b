import { closeTrade } from "../../../src/domain/ghost/close-trade.js";
import { tradeId } from "../../../src/domain/ghost/trade-id.js";
import type { Regime } from "../../../src/domain/market/vocabulary.js";
import type { Asset } from "../../../src/domain/signals/signal-keys.js";
import type { ClosedTrade, ExitFill, OpenPosition, TradeOrigin } from "../../../src/domain/ghost/trade.js";

export const DAY = 86_400_000;
export const D0 = Date.UTC(2024, 0, 1);

let seq = 0;

/** A one-fill closed trade: buy `size` at `entry`, sell all at `exit`, no fees (hand-checkable). */
export function trade(opts: {
  asset?: Asset;
  entry?: number;
  exit: number;
  size?: number;
  entryTime: number;
  holdHours: number;
  regime?: Regime | null;
  origin?: TradeOrigin;
  triggerId?: string | null;
}): ClosedTrade {
  const size = opts.size ?? 1;
  const entry = opts.entry ?? 100;
  const pos: OpenPosition = {
    id: tradeId(opts.asset ?? "BTC", "fixture", ++seq),
    asset: opts.asset ?? "BTC",
    origin: opts.origin ?? "live_paper",
    mode: "A",
    entryTime: opts.entryTime,
    entryPrice: entry,
    size,
    entryFeeUsd: 0,
    regimeAtEntry: opts.regime === undefined ? "BULL_TRENDING" : opts.regime,
    signalsAtEntry: [],
    triggerId: opts.triggerId ?? null,
    triggerKind: "council",
    qualityScore: 80,
    extras: { liquidityAtEntry: null, assetBtcRatioAtEntry: null, networkHealthAtEntry: null },
    remaining: size,
    stopLoss: entry * 0.97,
    tp1Hit: false,
    hwm: null,
    fills: [],
  };
  const fill: ExitFill = {
    t: opts.entryTime + opts.holdHours * 3_600_000,
    price: opts.exit,
    size,
    reason: opts.exit >= entry ? "TP2" : "STOP_LOSS",
    feeUsd: 0,
    pnlUsd: Math.round((opts.exit - entry) * size * 100) / 100,
  };
  return closeTrade(pos, fill);
}
