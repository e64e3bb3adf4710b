import type { GateReport } from "../../domain/ghost/entry-gates.js";
import type { GhostStatus } from "../../domain/ghost/ghost-trader.js";
import type { LiquidityView } from "../../domain/ghost/bar-input.js";
import type { SprintMark } from "../../domain/ghost/sprints.js";
import type { ClosedTrade, OpenPosition } from "../../domain/ghost/trade.js";
import type { Regime } from "../../domain/market/vocabulary.js";
import type { Asset } from "../../domain/signals/signal-keys.js";

/**
 * What one Ghost Trader looked like after its latest turn. The actor writes it every turn so the
 * status routes (TAO status, charting `ghost_status`, ghost stats' open positions) read the store
 * and never call an actor.
 */
export interface GhostSnapshot {
  readonly asset: Asset;
  /** Market time of the turn that wrote it. */
  readonly at: number;
  /** Open time of the newest bar applied; null before the first. */
  readonly barT: number | null;
  readonly status: GhostStatus;
  readonly position: OpenPosition | null;
  readonly gates: GateReport | null;
  readonly liquidity: LiquidityView;
  readonly price: number | null;
  readonly rsi1h: number | null;
  readonly ema200: number | null;
  readonly regime: Regime | null;
}

/** The Ghost Traders' ledger: closed trades, the latest status per asset, and the sprint marks. */
export interface GhostLedgerRepository {
  /** Upserts by trade id: a retried actor turn writes the same trade again without duplicating it. */
  saveClosed(trades: readonly ClosedTrade[]): Promise<void>;
  /** Closed trades (of one asset, or all), oldest exit first. */
  closed(asset?: Asset): Promise<ClosedTrade[]>;
  saveSnapshot(snapshot: GhostSnapshot): Promise<void>;
  /**
   * One trader step: the trades it closed and its new status, written so that no reader sees a
   * closed trade beside a snapshot still holding that position (the ledger's "one position at a
   * time" check would fail). One transaction on SQLite; on MongoDB (no multi-document
   * transactions) the snapshot first, so a crash in between leaves the trade to the retried
   * turn (upserts by id) rather than a position shown twice.
   */
  saveStep(closed: readonly ClosedTrade[], snapshot: GhostSnapshot): Promise<void>;
  snapshot(asset: Asset): Promise<GhostSnapshot | null>;
  snapshots(): Promise<GhostSnapshot[]>;
  /** Writes the launch mark once (later calls change nothing). */
  ensureFirstSprint(at: number, recordedAt: string): Promise<void>;
  addSprint(mark: SprintMark): Promise<void>;
  /** Every mark, oldest first. */
  sprints(): Promise<SprintMark[]>;
}
