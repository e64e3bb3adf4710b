import type { SqliteDb } from "./database.js";
import type { SqliteMigration } from "./migrate.js";
import type { SprintMark } from "../../domain/ghost/sprints.js";
import { ghostSnapshotFromJson, ghostSnapshotsChecked, type CheckedSnapshots, type GhostLedgerRepository, type GhostSnapshot } from "../ports/ghost-ledger.js";
import { closedTradeFromJson, closedTradesChecked, type CheckedTrades } from "../../domain/ghost/ledger-json.js";
import type { ClosedTrade } from "../../domain/ghost/trade.js";
import type { Asset } from "../../domain/signals/signal-keys.js";

export const ghostLedgerMigrations: readonly SqliteMigration[] = [
  {
    component: "ghost-ledger",
    version: 1,
    // Trades are stored whole as JSON (every field SPEC and the integrity checks need); the
    // columns beside it are only what queries filter and sort on. signal_weights is
    // SqliteSignalWeights' table (signal-weights.ts), created here with the ledger.
    up: `
      CREATE TABLE ghost_trades (
        id TEXT PRIMARY KEY, asset TEXT NOT NULL, entry_time INTEGER NOT NULL, exit_time INTEGER NOT NULL, body TEXT NOT NULL);
      CREATE INDEX ghost_trades_asset_exit ON ghost_trades (asset, exit_time);
      CREATE TABLE ghost_snapshots (asset TEXT PRIMARY KEY, at INTEGER NOT NULL, body TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE ghost_sprints (id TEXT PRIMARY KEY, scope TEXT NOT NULL, at INTEGER NOT NULL, reason TEXT NOT NULL, recorded_at TEXT NOT NULL);
      CREATE TABLE signal_weights (
        signal_key TEXT NOT NULL, regime TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (signal_key, regime)) WITHOUT ROWID;`,
  },
  {
    component: "ghost-ledger",
    version: 2,
    // The weights table as one row per cycle write (signal-weights.ts): a cycle is atomic, its
    // version a counter, and it keeps the rows it started from so a rerun does not step twice.
    // Rows stored before move in as a cycle at mark 0 that started from itself.
    up: `
      CREATE TABLE signal_weight_table (
        id INTEGER PRIMARY KEY CHECK (id = 1), cycle_at INTEGER NOT NULL, version INTEGER NOT NULL,
        before_rows TEXT NOT NULL, table_rows TEXT NOT NULL);
      INSERT INTO signal_weight_table (id, cycle_at, version, before_rows, table_rows)
        SELECT 1, 0, 1, json_group_array(json(body)), json_group_array(json(body))
        FROM (SELECT body FROM signal_weights ORDER BY regime, signal_key) HAVING count(*) > 0;
      DROP TABLE signal_weights;`,
  },
];

const FIRST_SPRINT_ID = "launch";

export class SqliteGhostLedger implements GhostLedgerRepository {
  private readonly upsertTrade;
  private readonly deleteTrade;
  private readonly allTrades;
  private readonly assetTrades;
  private readonly upsertSnapshot;
  private readonly oneSnapshot;
  private readonly allSnapshots;
  private readonly insertSprint;
  private readonly allSprints;

  constructor(private readonly db: SqliteDb) {
    this.upsertTrade = db.prepare(
      `INSERT INTO ghost_trades (id, asset, entry_time, exit_time, body) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET asset = excluded.asset, entry_time = excluded.entry_time,
         exit_time = excluded.exit_time, body = excluded.body`,
    );
    this.deleteTrade = db.prepare<[string, string]>("DELETE FROM ghost_trades WHERE id = ? AND asset = ?");
    this.allTrades = db.prepare<[], { body: string }>("SELECT body FROM ghost_trades ORDER BY exit_time, entry_time, id");
    this.assetTrades = db.prepare<[string], { body: string }>(
      "SELECT body FROM ghost_trades WHERE asset = ? ORDER BY exit_time, entry_time, id",
    );
    this.upsertSnapshot = db.prepare(
      "INSERT INTO ghost_snapshots (asset, at, body) VALUES (?, ?, ?) ON CONFLICT (asset) DO UPDATE SET at = excluded.at, body = excluded.body",
    );
    this.oneSnapshot = db.prepare<[string], { asset: string; body: string }>("SELECT asset, body FROM ghost_snapshots WHERE asset = ?");
    this.allSnapshots = db.prepare<[], { asset: string; body: string }>("SELECT asset, body FROM ghost_snapshots ORDER BY asset");
    this.insertSprint = db.prepare(
      "INSERT INTO ghost_sprints (id, scope, at, reason, recorded_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
    );
    this.allSprints = db.prepare<[], { id: string; scope: string; at: number; reason: string; recorded_at: string }>(
      "SELECT * FROM ghost_sprints ORDER BY at, recorded_at, id",
    );
  }

  async saveClosed(trades: readonly ClosedTrade[]): Promise<void> {
    this.db.transaction(() => this.#putTrades(trades)).immediate();
  }

  async closed(asset?: Asset): Promise<ClosedTrade[]> {
    return this.#tradeRows(asset).map((r) => closedTradeFromJson(JSON.parse(r.body)));
  }

  async closedChecked(asset?: Asset): Promise<CheckedTrades> {
    return closedTradesChecked(this.#tradeRows(asset).map((r) => jsonOrUndefined(r.body)));
  }

  #tradeRows(asset: Asset | undefined): { body: string }[] {
    return asset === undefined ? this.allTrades.all() : this.assetTrades.all(asset);
  }

  async saveSnapshot(s: GhostSnapshot): Promise<void> {
    this.#putSnapshot(s);
  }

  async saveStep(closed: readonly ClosedTrade[], s: GhostSnapshot, superseded: readonly string[] = []): Promise<void> {
    this.db.transaction(() => {
      for (const id of superseded) this.deleteTrade.run(id, s.asset);
      this.#putTrades(closed);
      this.#putSnapshot(s);
    }).immediate();
  }

  #putTrades(trades: readonly ClosedTrade[]): void {
    for (const t of trades) this.upsertTrade.run(t.id, t.asset, t.entryTime, t.exitTime, JSON.stringify(t));
  }

  #putSnapshot(s: GhostSnapshot): void {
    this.upsertSnapshot.run(s.asset, s.at, JSON.stringify(s));
  }

  async snapshot(asset: Asset): Promise<GhostSnapshot | null> {
    const row = this.oneSnapshot.get(asset);
    return row === undefined ? null : ghostSnapshotFromJson(JSON.parse(row.body));
  }

  async snapshotsChecked(asset?: Asset): Promise<CheckedSnapshots> {
    const rows = asset === undefined ? this.allSnapshots.all() : [this.oneSnapshot.get(asset)].filter((r) => r !== undefined);
    return ghostSnapshotsChecked(rows.map((r) => ({ key: r.asset, json: jsonOrUndefined(r.body) })));
  }

  async ensureFirstSprint(at: number, recordedAt: string): Promise<void> {
    this.insertSprint.run(FIRST_SPRINT_ID, "ALL", at, "launch", recordedAt);
  }

  async addSprint(m: SprintMark): Promise<void> {
    this.insertSprint.run(m.id, m.scope, m.at, m.reason, m.recordedAt);
  }

  async sprints(): Promise<SprintMark[]> {
    return this.allSprints.all().map((r) => ({ id: r.id, scope: r.scope as SprintMark["scope"], at: r.at, reason: r.reason, recordedAt: r.recorded_at }));
  }
}

/** A body that is not JSON reads as nothing, which no schema accepts. */
function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
