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
  {
    component: "signal-history",
    version: 3,
    // OFFSET paging stepped over every skipped row (p99 112 ms at 14 M rows). Each signal's points
    // now carry a dense sequence number in time order, so a page's first number is arithmetic
    // (newest seq − (page − 1) · perPage) and the total is newest seq − oldest seq + 1: the counts
    // table is no longer needed. No index on seq: it grows with time like recorded_at, so the
    // page's instant is found by a few interpolation probes of the primary key, and every write
    // touches one B-tree (a second index nearly doubled the recorder's commit cost). Rebuilt
    // rather than ALTERed so seq is NOT NULL and the existing rows get numbers in one pass.
    up: `
      CREATE TABLE signal_history_v3 (
        signal_key TEXT NOT NULL, recorded_at INTEGER NOT NULL, seq INTEGER NOT NULL, value REAL NOT NULL, source TEXT NOT NULL,
        PRIMARY KEY (signal_key, recorded_at)) WITHOUT ROWID;
      INSERT INTO signal_history_v3 (signal_key, recorded_at, seq, value, source)
        SELECT signal_key, recorded_at, ROW_NUMBER() OVER (PARTITION BY signal_key ORDER BY recorded_at), value, source
        FROM signal_history ORDER BY signal_key, recorded_at;
      DROP TABLE signal_history;
      ALTER TABLE signal_history_v3 RENAME TO signal_history;
      DROP TABLE signal_history_counts;`,
  },
];

interface Row {
  recorded_at: number;
  value: number;
  source: string;
}

interface Numbered {
  t: number;
  seq: number;
}

export class SqliteSignalHistory implements SignalHistoryRepository {
  private readonly insert;
  private readonly insertIfNew;
  private readonly newestRow;
  private readonly newestAsOf;
  private readonly oldestAfter;
  private readonly pageRows;
  private readonly renumber;
  private readonly prune;

  constructor(private readonly db: SqliteDb) {
    this.insert = db.prepare("INSERT INTO signal_history (signal_key, recorded_at, seq, value, source) VALUES (?, ?, ?, ?, ?)");
    this.insertIfNew = db.prepare(
      `INSERT INTO signal_history (signal_key, recorded_at, seq, value, source) VALUES (?, ?, 0, ?, ?)
       ON CONFLICT (signal_key, recorded_at) DO NOTHING`,
    );
    this.newestRow = db.prepare<[string], Numbered>(
      "SELECT recorded_at AS t, seq FROM signal_history WHERE signal_key = ? ORDER BY recorded_at DESC LIMIT 1",
    );
    this.newestAsOf = db.prepare<[string, number], Numbered>(
      "SELECT recorded_at AS t, seq FROM signal_history WHERE signal_key = ? AND recorded_at <= ? ORDER BY recorded_at DESC LIMIT 1",
    );
    this.oldestAfter = db.prepare<[string, number], Numbered>(
      "SELECT recorded_at AS t, seq FROM signal_history WHERE signal_key = ? AND recorded_at > ? ORDER BY recorded_at LIMIT 1",
    );
    this.pageRows = db.prepare<[string, number, number], Row>(
      `SELECT recorded_at, value, source FROM signal_history WHERE signal_key = ? AND recorded_at <= ?
       ORDER BY recorded_at DESC LIMIT ?`,
    );
    // Numbers every point of a signal from `from` on again, densely and in time order, starting
    // after the last point before `from`. Only for a point written into the middle of a series.
    this.renumber = db.prepare<[number, string, number, string]>(
      `UPDATE signal_history SET seq = r.s
       FROM (SELECT recorded_at AS t, ? + ROW_NUMBER() OVER (ORDER BY recorded_at) AS s
             FROM signal_history WHERE signal_key = ? AND recorded_at >= ?) AS r
       WHERE signal_key = ? AND recorded_at = r.t`,
    );
    // One statement over every key: the IN list makes SQLite seek the primary key once per key
    // (no full-table scan), and a single statement is atomic without a transaction of its own.
    this.prune = db.prepare(`DELETE FROM signal_history WHERE signal_key IN (${SIGNAL_KEYS.map(() => "?").join(", ")}) AND recorded_at < ?`);
  }

  async append(points: readonly SignalHistoryPoint[]): Promise<number> {
    const byKey = new Map<SignalKey, SignalHistoryPoint[]>();
    for (const p of points) {
      const list = byKey.get(p.signalKey);
      if (list) list.push(p);
      else byKey.set(p.signalKey, [p]);
    }
    // One transaction (IMMEDIATE, so two processes never number from the same newest point):
    // a crash leaves all of the batch or none, so the resume point stays exact.
    return this.db.transaction(() => {
      let total = 0;
      for (const [key, list] of byKey) total += this.appendKey(key, list);
      return total;
    }).immediate();
  }

  private appendKey(key: SignalKey, list: SignalHistoryPoint[]): number {
    list.sort((a, b) => a.recordedAt - b.recordedAt);
    const newest = this.newestRow.get(key);
    // The recorder's case: everything lies after the newest stored instant, so numbers continue.
    let seq = newest?.seq ?? 0;
    let last = newest?.t ?? -Infinity;
    let earliestOutOfOrder: number | null = null;
    let added = 0;
    for (const p of list) {
      if (p.recordedAt > last) {
        this.insert.run(key, p.recordedAt, ++seq, p.value, p.source);
        last = p.recordedAt;
        added++;
      } else if (this.insertIfNew.run(key, p.recordedAt, p.value, p.source).changes > 0) {
        // Another writer got ahead and this fills a hole behind it: renumber from here below.
        earliestOutOfOrder ??= p.recordedAt;
        added++;
      }
    }
    if (earliestOutOfOrder !== null) {
      const before = this.db
        .prepare<[string, number], { seq: number }>(
          "SELECT seq FROM signal_history WHERE signal_key = ? AND recorded_at < ? ORDER BY recorded_at DESC LIMIT 1",
        )
        .get(key, earliestOutOfOrder);
      // Nothing before it: the series starts where its oldest surviving number did (pruning keeps it).
      const base = before?.seq ?? Math.max(0, (this.oldestSeqAfter(key, earliestOutOfOrder) ?? 1) - 1);
      this.renumber.run(base, key, earliestOutOfOrder, key);
    }
    return added;
  }

  /** Smallest number among the already numbered points at or after `t` (the fresh one has 0). */
  private oldestSeqAfter(key: SignalKey, t: number): number | null {
    return (
      this.db
        .prepare<[string, number], { seq: number | null }>("SELECT MIN(seq) AS seq FROM signal_history WHERE signal_key = ? AND recorded_at >= ? AND seq > 0")
        .get(key, t)?.seq ?? null
    );
  }

  async latestRecordedAt(signalKey: SignalKey): Promise<number | null> {
    return this.newestRow.get(signalKey)?.t ?? null;
  }

  async page(q: SignalHistoryQuery): Promise<SignalHistoryPage> {
    // Read together so a concurrent append or prune cannot shift the numbers between the reads.
    return this.db.transaction((): SignalHistoryPage => {
      const top = this.newestAsOf.get(q.signalKey, q.asOf);
      if (top === undefined) return { items: [], total: 0 };
      const oldest = this.oldestAfter.get(q.signalKey, Number.MIN_SAFE_INTEGER) ?? top;
      const total = top.seq - oldest.seq + 1;
      const first = top.seq - (q.page - 1) * q.perPage;
      if (first < oldest.seq) return { items: [], total };
      const from = this.instantOf(q.signalKey, first, oldest, top);
      const rows = this.pageRows.all(q.signalKey, from, q.perPage);
      return { items: rows.map((r) => ({ signalKey: q.signalKey, recordedAt: r.recorded_at, value: r.value, source: r.source })), total };
    })();
  }

  /**
   * The instant numbered `seq` (lo.seq ≤ seq ≤ hi.seq). Numbers and instants rise together, so
   * interpolate between the known ends and probe the primary key; per-minute or hourly series
   * land in one or two probes. Every probe moves an end strictly inward, and every other one
   * bisects, so irregular series still finish in O(log span) probes.
   */
  private instantOf(key: SignalKey, seq: number, lo: Numbered, hi: Numbered): number {
    for (let i = 0; ; i++) {
      if (seq === lo.seq) return lo.t;
      if (seq === hi.seq) return hi.t;
      const guess =
        i % 2 === 0 ? lo.t + Math.round(((hi.t - lo.t) * (seq - lo.seq)) / (hi.seq - lo.seq)) : lo.t + Math.floor((hi.t - lo.t) / 2);
      const at = Math.min(hi.t - 1, Math.max(lo.t + 1, guess));
      const below = this.newestAsOf.get(key, at);
      if (below !== undefined && below.seq >= seq) {
        if (below.seq === seq) return below.t;
        hi = below;
        continue;
      }
      const above = this.oldestAfter.get(key, at);
      // Dense numbering guarantees a row after `at` and before hi; absent only if rows vanished.
      if (above === undefined) return hi.t;
      if (above.seq >= seq) return above.t;
      lo = above;
    }
  }

  async pruneBefore(cutoff: number): Promise<number> {
    // Only the old end goes, so the numbers of the points that stay never change.
    return this.prune.run(...SIGNAL_KEYS, cutoff).changes;
  }
}
