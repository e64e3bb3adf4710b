import type { SqliteDb } from "./database.js";
import type { SqliteMigration } from "./migrate.js";
import {
  observationId,
  type LiveObservation,
  type LiveObservationCursor,
  type LiveObservationLog,
  type StoredLiveObservation,
} from "../ports/live-observations.js";

export const liveObservationMigrations: readonly SqliteMigration[] = [
  {
    component: "live-observations",
    version: 1,
    // Keyed by (stream, at) through `id`; readers page by (written_at, id), hence the index.
    up: `
      CREATE TABLE live_observations (
        id TEXT PRIMARY KEY, stream TEXT NOT NULL, at INTEGER NOT NULL, payload TEXT NOT NULL, written_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX live_observations_written ON live_observations (written_at, id);
      CREATE INDEX live_observations_at ON live_observations (at);`,
  },
];

interface Row {
  id: string;
  stream: string;
  at: number;
  payload: string;
  written_at: number;
}

export class SqliteLiveObservations implements LiveObservationLog {
  private readonly upsert;
  private readonly page;
  private readonly prune;

  constructor(private readonly db: SqliteDb) {
    // An unchanged payload keeps its written_at, so readers are not handed it again.
    this.upsert = db.prepare<[string, string, number, string, number]>(
      `INSERT INTO live_observations (id, stream, at, payload, written_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET payload = excluded.payload, written_at = excluded.written_at
       WHERE live_observations.payload <> excluded.payload`,
    );
    this.page = db.prepare<[number, number, string, number], Row>(
      `SELECT id, stream, at, payload, written_at FROM live_observations
       WHERE written_at > ? OR (written_at = ? AND id > ?) ORDER BY written_at, id LIMIT ?`,
    );
    this.prune = db.prepare<[number]>("DELETE FROM live_observations WHERE at < ?");
  }

  async put(items: readonly LiveObservation[], writtenAt: number): Promise<number> {
    return this.db.transaction(() => {
      let changed = 0;
      for (const o of items) changed += this.upsert.run(observationId(o.stream, o.at), o.stream, o.at, o.payload, writtenAt).changes;
      return changed;
    })();
  }

  async after(cursor: LiveObservationCursor, limit: number): Promise<StoredLiveObservation[]> {
    return this.page
      .all(cursor.writtenAt, cursor.writtenAt, cursor.id, limit)
      .map((r) => ({ id: r.id, stream: r.stream, at: r.at, payload: r.payload, writtenAt: r.written_at }));
  }

  async pruneBefore(cutoff: number): Promise<number> {
    return this.prune.run(cutoff).changes;
  }
}
