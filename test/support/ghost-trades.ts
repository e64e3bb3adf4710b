import type { ClosedTrade, OpenPosition } from "../../src/domain/ghost/trade.js";
import type { GhostSnapshot } from "../../src/store/ports/ghost-ledger.js";
import { tradeId } from "../../src/domain/ghost/trade-id.js";

const H = 3_600_000;

/** A consistent closed live-paper trade (one fill, passes every ledger integrity check). */
export function closedTrade(asset: ClosedTrade["asset"], entryTime: number, pnlUsd: number): ClosedTrade {
  const size = 0.1;
  return {
    id: tradeId(asset, "live_paper", entryTime),
    asset,
    origin: "live_paper",
    mode: "A",
    entryTime,
    entryPrice: 1000,
    size,
    entryFeeUsd: 0.1,
    regimeAtEntry: "BULL_TRENDING",
    signalsAtEntry: [{ key: "BTC_RSI", value: 55.5, contribution: 0.11 }],
    triggerId: "session-1",
    triggerKind: "council",
    qualityScore: 71.5,
    extras: { liquidityAtEntry: null, assetBtcRatioAtEntry: 0.05, networkHealthAtEntry: asset === "SOL" ? "UNKNOWN" : null },
    exitTime: entryTime + 5 * H,
    exitPrice: 1000 + pnlUsd / size,
    exitReason: pnlUsd > 0 ? "TP2" : "STOP_LOSS",
    fills: [{ t: entryTime + 5 * H, price: 1000 + pnlUsd / size, size, reason: pnlUsd > 0 ? "TP2" : "STOP_LOSS", feeUsd: 0.1, pnlUsd }],
    pnlUsd,
    pnlPct: (pnlUsd / 100) * 100,
    tp1PnlUsd: null,
    result: pnlUsd > 0 ? "WIN" : "LOSS",
    valid: true,
  };
}

/** A trader's stored status after a turn at `at`: waiting, or holding `position`. */
export function traderStatus(asset: GhostSnapshot["asset"], at: number, position: OpenPosition | null = null): GhostSnapshot {
  return {
    asset,
    at,
    barT: at - H,
    status: position === null ? "WAITING" : "IN_POSITION",
    position,
    gates: null,
    liquidity: { status: "UNKNOWN", depthUsd: null, live: false },
    price: 1000,
    rsi1h: 50,
    ema200: 990,
    regime: "RISK_ON",
  };
}
