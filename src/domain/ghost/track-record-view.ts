import type { Asset } from "../signals/signal-keys.js";
import { countedClosed } from "./trade-validity.js";
import { trackRecordStats, type TrackRecordStats } from "./track-record-stats.js";
import type { ClosedTrade } from "./trade.js";
import { PAPER_VALIDATION_TARGET } from "./ghost-stats.js";

/** SPEC size key per asset: `sizeBtc`, `sizeEth`, `sizeSol`, `sizeTao`. */
export const SIZE_KEY = { BTC: "sizeBtc", ETH: "sizeEth", SOL: "sizeSol", TAO: "sizeTao" } as const satisfies Record<Asset, string>;

/** TAO emission halving date of SPEC ("daysSinceHalving"). */
export const TAO_HALVING_MS = Date.UTC(2025, 11, 1);

export type TradeView = Record<string, string | number | boolean | null>;

/** One closed trade as SPEC "Track records" shows it for its asset. */
export function tradeView(t: ClosedTrade): TradeView {
  const base: TradeView = {
    id: t.id,
    entryTime: new Date(t.entryTime).toISOString(),
    exitTime: new Date(t.exitTime).toISOString(),
    entryPrice: t.entryPrice,
    exitPrice: t.exitPrice,
    [SIZE_KEY[t.asset]]: t.size,
    pnlUsd: t.pnlUsd,
    pnlPct: t.pnlPct,
    tp1PnlUsd: t.tp1PnlUsd,
    result: t.result,
    mode: t.mode,
  };
  if (t.asset === "SOL") base.networkHealthAtEntry = t.extras.networkHealthAtEntry ?? "UNKNOWN";
  if (t.asset === "TAO") {
    base.liquidityAtEntry = t.extras.liquidityAtEntry;
    base.daysSinceHalving = daysSinceHalving(t.entryTime);
    base.isPaper = true;
  }
  return base;
}

/** Whole days since the TAO halving; null before it (no halving had happened yet). */
export function daysSinceHalving(ms: number): number | null {
  return ms < TAO_HALVING_MS ? null : Math.floor((ms - TAO_HALVING_MS) / 86_400_000);
}

export interface TrackRecordView {
  readonly trades: TradeView[];
  readonly stats: TrackRecordStats & { validatedPaperTrades?: number; paperValidationTarget?: number };
}

/** The envelope of endpoint 16: counted closed trades of one asset, oldest first, and stats. */
export function trackRecordView(asset: Asset, ledger: readonly ClosedTrade[], sinceMs: number): TrackRecordView {
  const trades = countedClosed(
    ledger.filter((t) => t.asset === asset),
    sinceMs,
  ).sort((a, b) => a.entryTime - b.entryTime || a.exitTime - b.exitTime);
  const stats = trackRecordStats(trades);
  if (asset !== "TAO") return { trades: trades.map(tradeView), stats };
  return {
    trades: trades.map(tradeView),
    stats: {
      ...stats,
      validatedPaperTrades: Math.min(PAPER_VALIDATION_TARGET, trades.length),
      paperValidationTarget: PAPER_VALIDATION_TARGET,
    },
  };
}
