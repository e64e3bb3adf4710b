import { z } from "zod";
import type { GateReport } from "../../domain/ghost/entry-gates.js";
import type { GhostStatus } from "../../domain/ghost/ghost-trader.js";
import type { LiquidityView } from "../../domain/ghost/bar-input.js";
import type { SprintMark } from "../../domain/ghost/sprints.js";
import type { ClosedTrade, OpenPosition } from "../../domain/ghost/trade.js";
import type { CheckedTrades } from "../../domain/ghost/ledger-json.js";
import type { Regime } from "../../domain/market/vocabulary.js";
import { ASSETS, type Asset } from "../../domain/signals/signal-keys.js";
import { REGIMES } from "../../domain/market/vocabulary.js";
import { gateReportJsonSchema, liquidityViewJsonSchema, openPositionJsonSchema, readEachRow } from "../../domain/ghost/ledger-json.js";

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

/** A snapshot as the adapters read it back: one of another build's shape fails where it is read. */
export const ghostSnapshotJsonSchema = z.object({
  asset: z.enum(ASSETS),
  at: z.number().int(),
  barT: z.number().int().nullable(),
  status: z.enum(["WAITING", "READY", "IN_POSITION"]),
  position: openPositionJsonSchema.nullable(),
  gates: gateReportJsonSchema.nullable(),
  liquidity: liquidityViewJsonSchema,
  price: z.number().nullable(),
  rsi1h: z.number().nullable(),
  ema200: z.number().nullable(),
  regime: z.enum(REGIMES).nullable(),
});

export function ghostSnapshotFromJson(json: unknown): GhostSnapshot {
  return ghostSnapshotJsonSchema.parse(json);
}

/** Trader statuses read row by row: the ones that read back, and the keys of those that do not. */
export interface CheckedSnapshots {
  readonly snapshots: GhostSnapshot[];
  /** The stored key (the asset) of each status row the schema refuses. */
  readonly unreadable: string[];
}

/** Sorts stored status rows into those that read back and those that do not (by their key). */
export function ghostSnapshotsChecked(rows: readonly { readonly key: string; readonly json: unknown }[]): CheckedSnapshots {
  const { read, refused } = readEachRow(ghostSnapshotJsonSchema, rows, (row) => row.json);
  return { snapshots: read, unreadable: refused.map((row) => row.key) };
}

/** The Ghost Traders' ledger: closed trades, the latest status per asset, and the sprint marks. */
export interface GhostLedgerRepository {
  /** Upserts by trade id: a retried actor turn writes the same trade again without duplicating it. */
  saveClosed(trades: readonly ClosedTrade[]): Promise<void>;
  /**
   * Closed trades (of one asset, or all), oldest exit first. A stored row that does not read
   * back as a trade fails the read: no route publishes a track record with a row left out.
   */
  closed(asset?: Asset): Promise<ClosedTrade[]>;
  /**
   * The same for the integrity checks: a row that does not read back is left out and counted, so
   * `tests_passing` reports it (ledger-integrity.ts) instead of the stats route failing with it.
   */
  closedChecked(asset?: Asset): Promise<CheckedTrades>;
  saveSnapshot(snapshot: GhostSnapshot): Promise<void>;
  /**
   * One trader step: the trades it closed and its new status, written so that no reader sees a
   * closed trade beside a snapshot still holding that position (the ledger's "one position at a
   * time" check would fail). One transaction on SQLite; on MongoDB (no multi-document
   * transactions) the snapshot first, so a crash in between leaves the trade to the retried
   * turn (upserts by id) rather than a position shown twice.
   *
   * `superseded` names trades of the snapshot's asset that a failed turn stored and this step,
   * re-applying the same bars, did not close again (its inputs differed: a new depth reading, a
   * revised live bar). They are deleted with the step, so the ledger holds only trades of the
   * trader's committed history.
   */
  saveStep(closed: readonly ClosedTrade[], snapshot: GhostSnapshot, superseded?: readonly string[]): Promise<void>;
  /** A status row that does not read back fails this read (the TAO status and charting routes). */
  snapshot(asset: Asset): Promise<GhostSnapshot | null>;
  /**
   * The statuses (of one asset, or all) with a row that does not read back named instead of
   * thrown: the integrity read counts it (check 5), and the trader's own turn, which rewrites
   * its status, is not stopped by it.
   */
  snapshotsChecked(asset?: Asset): Promise<CheckedSnapshots>;
  /** Writes the launch mark once (later calls change nothing). */
  ensureFirstSprint(at: number, recordedAt: string): Promise<void>;
  addSprint(mark: SprintMark): Promise<void>;
  /** Every mark, oldest first. */
  sprints(): Promise<SprintMark[]>;
}
