import type { Regime } from "../market/vocabulary.js";
import type { Asset, SignalKey } from "../signals/signal-keys.js";

/** DECISIONS 4: A trend continuation, B pullback, C breakout. */
export const ENTRY_MODES = ["A", "B", "C"] as const;
export type EntryMode = (typeof ENTRY_MODES)[number];

/**
 * Where a trade came from (issue 8 "trade validity"). Only `live_paper` trades made by the Ghost
 * Trader actors count in published stats; the others are stored for audit but never shown.
 */
export const TRADE_ORIGINS = ["live_paper", "backfill", "synthetic", "test"] as const;
export type TradeOrigin = (typeof TRADE_ORIGINS)[number];

/** Why a fill happened. TP1 is the half close; every other reason closes what is left. */
export const FILL_REASONS = ["TP1", "TP2", "STOP_LOSS", "BREAK_EVEN_STOP", "TRAILING_STOP", "TIME_EXIT"] as const;
export type FillReason = (typeof FILL_REASONS)[number];

export type TradeResult = "WIN" | "LOSS";

/**
 * A signal as the deciding engine saw it at entry. `contribution` is the signed share the signal
 * added to the score in [-1, 1] (positive bullish); the weights grade its sign, not its value.
 */
export interface SignalAtEntry {
  readonly key: SignalKey;
  readonly value: number | null;
  readonly contribution: number;
}

/** One exit fill. `pnlUsd` is net of this fill's exit fee and its share of the entry fee. */
export interface ExitFill {
  readonly t: number;
  readonly price: number;
  readonly size: number;
  readonly reason: FillReason;
  readonly feeUsd: number;
  readonly pnlUsd: number;
}

/** Facts recorded when a position opens; they never change afterwards. */
export interface EntryRecord {
  readonly id: string;
  readonly asset: Asset;
  readonly origin: TradeOrigin;
  readonly mode: EntryMode;
  readonly entryTime: number;
  /** Fill price including slippage. */
  readonly entryPrice: number;
  /** Units of the asset bought (rounded down to 1e-8). */
  readonly size: number;
  readonly entryFeeUsd: number;
  readonly regimeAtEntry: Regime | null;
  readonly signalsAtEntry: readonly SignalAtEntry[];
  /** Council session id, or the judiciary verdict id when no council triggered the entry. */
  readonly triggerId: string | null;
  readonly triggerKind: "council" | "judiciary";
  readonly qualityScore: number;
  /** Asset-specific facts at entry (TAO liquidity, SOL network health...), never invented. */
  readonly extras: EntryExtras;
}

export interface EntryExtras {
  readonly liquidityAtEntry: number | null;
  readonly assetBtcRatioAtEntry: number | null;
  readonly networkHealthAtEntry: "HEALTHY" | "DEGRADED" | "UNKNOWN" | null;
}

/** An open LONG paper position (one per asset at most). */
export interface OpenPosition extends EntryRecord {
  /** Units still held: `size` before TP1, half of it after. */
  readonly remaining: number;
  readonly stopLoss: number;
  readonly tp1Hit: boolean;
  /** High-water mark for the trailing stop: null until TP1, then the highest high since. */
  readonly hwm: number | null;
  readonly fills: readonly ExitFill[];
}

/** A closed trade as the ledger stores it. */
export interface ClosedTrade extends EntryRecord {
  readonly exitTime: number;
  /** Price of the final fill (the TP1 partial is in `fills` and `tp1PnlUsd`). */
  readonly exitPrice: number;
  readonly exitReason: FillReason;
  readonly fills: readonly ExitFill[];
  /** Total net P&L, entry to final exit, TP1 partial included (cents). */
  readonly pnlUsd: number;
  /** pnlUsd / (entryPrice × size) × 100, 4 decimals. */
  readonly pnlPct: number;
  readonly tp1PnlUsd: number | null;
  readonly result: TradeResult;
  readonly valid: boolean;
}
