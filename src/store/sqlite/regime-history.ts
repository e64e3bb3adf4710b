import type { SqliteDb } from "./database.js";
import type { SqliteMigration } from "./migrate.js";
import type { RegimeHistoryRepository, StoredRegime } from "../ports/regime-history.js";
import { regimeReportFromJson, regimeReportToJson } from "../../domain/regime/report-json.js";

export const regimeHistoryMigrations: readonly SqliteMigration[] = [
  {
    component: "regime-history",
    version: 1,
    // One row per hourly evaluation, keyed by its market time: the primary key makes a retried
    // turn's write an overwrite of the same row, and every read is a range scan of it.
    up: `CREATE TABLE regime_history (at INTEGER PRIMARY KEY, regime TEXT NOT NULL, confidence REAL NOT NULL, report TEXT NOT NULL);`,
  },
];

interface Row {
  at: number;
  report: string;
}

export class SqliteRegimeHistory implements RegimeHistoryRepository {
  private readonly upsert;
  private readonly latest;
  private readonly range;
  private readonly prune;

  constructor(db: SqliteDb) {
    this.upsert = db.prepare(
      `INSERT INTO regime_history (at, regime, confidence, report) VALUES (?, ?, ?, ?)
       ON CONFLICT (at) DO UPDATE SET regime = excluded.regime, confidence = excluded.confidence, report = excluded.report`,
    );
    this.latest = db.prepare<[number], Row>("SELECT at, report FROM regime_history WHERE at <= ? ORDER BY at DESC LIMIT 1");
    this.range = db.prepare<[number, number], Row>("SELECT at, report FROM regime_history WHERE at >= ? AND at <= ? ORDER BY at ASC");
    this.prune = db.prepare<[number]>("DELETE FROM regime_history WHERE at < ?");
  }

  async record(entry: StoredRegime): Promise<void> {
    this.upsert.run(entry.at, entry.report.regime, entry.report.confidence, JSON.stringify(regimeReportToJson(entry.report)));
  }

  async latestAtOrBefore(at: number): Promise<StoredRegime | null> {
    const row = this.latest.get(at);
    return row ? fromRow(row) : null;
  }

  async between(from: number, to: number): Promise<StoredRegime[]> {
    return this.range.all(from, to).map(fromRow);
  }

  async pruneBefore(at: number): Promise<number> {
    return this.prune.run(at).changes;
  }
}

function fromRow(row: Row): StoredRegime {
  return { at: row.at, report: regimeReportFromJson(JSON.parse(row.report)) };
}
