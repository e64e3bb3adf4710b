import type { SqliteDb } from "./database.js";
import type { SqliteMigration } from "./migrate.js";
import type { SignalHistoryPage, SignalHistoryPoint, SignalHistoryQuery, SignalHistoryRepository } from "../ports/signal-history.js";
import { SIGNAL_KEYS, type SignalKey } from "../../domain/signals/signal-keys.js";

export const signalHistoryMigrations: readonly SqliteMigration[] = [
  {
    component: "signal-history",
    version: 1,
    // WITHOUT ROWID: the primary key is the clustered index, so a page is one range scan of
    // (signal_key, recorded_at) and the uniqueness that makes writes idempotent costs no second index.
    up: `
      CREATE TABLE signal_history (
        signal_key TEXT NOT NULL, recorded_at INTEGER NOT NULL, value REAL NOT NULL, source TEXT NOT NULL,
        PRIMARY KEY (signal_key, recorded_at)) WITHOUT ROWID;`,
  },
  {
    component: "signal-history",
    version: 2,
    // COUNT(*) over a year of per-minute points (~525 k per signal) took ~20 ms, the whole page
    // budget: keep each signal's count beside it, updated in the same transactions as the rows.
    up: `
      CREATE TABLE signal_history_counts (signal_key TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
      INSERT INTO signal_history_counts (signal_key, n) SELECT signal_key, COUNT(*) FROM signal_history GROUP BY signal_key;`,
  },
];

interface Row {
  signal_key: string;
  recorded_at: number;
  value: number;
  source: string;
}

export class SqliteSignalHistory implements SignalHistoryRepository {
  private readonly insert;
  private readonly newest;
  private readonly pageRows;
  private readonly stored;
  private readonly after;
  private readonly addCount;
  private readonly prune;

  constructor(private readonly db: SqliteDb) {
    this.insert = db.prepare(
      `INSERT INTO signal_history (signal_key, recorded_at, value, source) VALUES (?, ?, ?, ?)
       ON CONFLICT (signal_key, recorded_at) DO NOTHING`,
    );
    this.newest = db.prepare<[string], { t: number | null }>("SELECT MAX(recorded_at) AS t FROM signal_history WHERE signal_key = ?");
    this.pageRows = db.prepare<[string, number, number, number], Row>(
      `SELECT * FROM signal_history WHERE signal_key = ? AND recorded_at <= ?
       ORDER BY recorded_at DESC LIMIT ? OFFSET ?`,
    );
    this.stored = db.prepare<[string], { n: number }>("SELECT n FROM signal_history_counts WHERE signal_key = ?");
    // Points after asOf exist only when a replay restarts earlier than a previous run got: few.
    this.after = db.prepare<[string, number], { n: number }>(
      "SELECT COUNT(*) AS n FROM signal_history WHERE signal_key = ? AND recorded_at > ?",
    );
    this.addCount = db.prepare(
      `INSERT INTO signal_history_counts (signal_key, n) VALUES (?, ?)
       ON CONFLICT (signal_key) DO UPDATE SET n = n + excluded.n`,
    );
    this.prune = db.prepare("DELETE FROM signal_history WHERE signal_key = ? AND recorded_at < ?");
  }

  async append(points: readonly SignalHistoryPoint[]): Promise<number> {
    // One transaction: a crash leaves all of the batch or none, so the resume point stays exact.
    return this.db.transaction(() => {
      const added = new Map<string, number>();
      for (const p of points) {
        const n = this.insert.run(p.signalKey, p.recordedAt, p.value, p.source).changes;
        if (n > 0) added.set(p.signalKey, (added.get(p.signalKey) ?? 0) + n);
      }
      let total = 0;
      for (const [key, n] of added) {
        this.addCount.run(key, n);
        total += n;
      }
      return total;
    }).immediate();
  }

  async latestRecordedAt(signalKey: SignalKey): Promise<number | null> {
    return this.newest.get(signalKey)?.t ?? null;
  }

  async page(q: SignalHistoryQuery): Promise<SignalHistoryPage> {
    const rows = this.pageRows.all(q.signalKey, q.asOf, q.perPage, (q.page - 1) * q.perPage);
    const total = (this.stored.get(q.signalKey)?.n ?? 0) - (this.after.get(q.signalKey, q.asOf)?.n ?? 0);
    return {
      items: rows.map((r) => ({ signalKey: r.signal_key as SignalKey, recordedAt: r.recorded_at, value: r.value, source: r.source })),
      total,
    };
  }

  async pruneBefore(cutoff: number): Promise<number> {
    // Per key, so each delete is a range scan of the primary key instead of a full-table scan.
    return this.db.transaction(() => {
      let removed = 0;
      for (const key of SIGNAL_KEYS) {
        const n = this.prune.run(key, cutoff).changes;
        if (n > 0) this.addCount.run(key, -n);
        removed += n;
      }
      return removed;
    }).immediate();
  }
}
