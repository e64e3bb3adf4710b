import type { SqliteDb } from "./database.js";
import type { SqliteMigration } from "./migrate.js";
import type { PricePoint } from "../../domain/calibration/price-path.js";
import type { Asset } from "../../domain/signals/signal-keys.js";
import { pricePointSchema, recordedRulingSchema, type CalibrationHistoryRepository, type RecordedRuling } from "../ports/calibration-history.js";

export const calibrationHistoryMigrations: readonly SqliteMigration[] = [
  {
    component: "calibration-history",
    version: 1,
    // Read by (stream, at) ranges and (asset, at) ranges, pruned by at.
    up: `
      CREATE TABLE calibration_rulings (stream TEXT NOT NULL, at INTEGER NOT NULL, ruling TEXT NOT NULL, score REAL NOT NULL, PRIMARY KEY (stream, at)) WITHOUT ROWID;
      CREATE INDEX calibration_rulings_at ON calibration_rulings (at);
      CREATE TABLE calibration_closes (asset TEXT NOT NULL, at INTEGER NOT NULL, close REAL NOT NULL, PRIMARY KEY (asset, at)) WITHOUT ROWID;
      CREATE INDEX calibration_closes_at ON calibration_closes (at);`,
  },
];

export class SqliteCalibrationHistory implements CalibrationHistoryRepository {
  private readonly insertRuling;
  private readonly rulingsOf;
  private readonly insertClose;
  private readonly closesOf;
  private readonly pruneRulings;
  private readonly pruneCloses;

  constructor(private readonly db: SqliteDb) {
    this.insertRuling = db.prepare<[string, number, string, number]>("INSERT OR IGNORE INTO calibration_rulings (stream, at, ruling, score) VALUES (?, ?, ?, ?)");
    this.rulingsOf = db.prepare<[string, number, number], unknown>("SELECT stream, at, ruling, score FROM calibration_rulings WHERE stream = ? AND at BETWEEN ? AND ?");
    this.insertClose = db.prepare<[string, number, number]>("INSERT OR IGNORE INTO calibration_closes (asset, at, close) VALUES (?, ?, ?)");
    this.closesOf = db.prepare<[string, number, number], unknown>("SELECT at AS t, close FROM calibration_closes WHERE asset = ? AND at BETWEEN ? AND ? ORDER BY at");
    this.pruneRulings = db.prepare<[number]>("DELETE FROM calibration_rulings WHERE at < ?");
    this.pruneCloses = db.prepare<[number]>("DELETE FROM calibration_closes WHERE at < ?");
  }

  async recordRulings(rows: readonly RecordedRuling[]): Promise<void> {
    this.db.transaction(() => {
      // Checked on the way in too: one bad row stored would make every read of its span throw.
      for (const r of rows.map((row) => recordedRulingSchema.parse(row))) this.insertRuling.run(r.stream, r.at, r.ruling, r.score);
    })();
  }

  async rulingsBetween(streams: readonly string[], from: number, to: number): Promise<RecordedRuling[]> {
    const rows = streams.flatMap((s) => this.rulingsOf.all(s, from, to).map((r) => recordedRulingSchema.parse(r)));
    return rows.sort((a, b) => a.at - b.at);
  }

  async recordCloses(asset: Asset, points: readonly PricePoint[]): Promise<void> {
    this.db.transaction(() => {
      for (const p of points.map((point) => pricePointSchema.parse(point))) this.insertClose.run(asset, p.t, p.close);
    })();
  }

  async closesBetween(asset: Asset, from: number, to: number): Promise<PricePoint[]> {
    return this.closesOf.all(asset, from, to).map((r) => pricePointSchema.parse(r));
  }

  async pruneBefore(cutoff: number): Promise<number> {
    return this.db.transaction(() => this.pruneRulings.run(cutoff).changes + this.pruneCloses.run(cutoff).changes)();
  }
}
