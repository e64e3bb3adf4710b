import type { SqliteDb } from "./database.js";
import type { SqliteMigration } from "./migrate.js";
import type { SharedCacheEntry, SharedResponseCache } from "../ports/response-cache.js";

export const responseCacheMigrations: readonly SqliteMigration[] = [
  {
    component: "response-cache",
    version: 1,
    up: `CREATE TABLE response_cache (key TEXT PRIMARY KEY, body TEXT NOT NULL, expires_at INTEGER NOT NULL);
         CREATE INDEX response_cache_expiry ON response_cache (expires_at);`,
  },
];

export class SqliteResponseCache implements SharedResponseCache {
  private readonly one;
  private readonly upsert;
  private readonly sweep;

  constructor(db: SqliteDb) {
    this.one = db.prepare<[string], { body: string; expires_at: number }>("SELECT body, expires_at FROM response_cache WHERE key = ?");
    // Replaces only an expired entry: a live one another replica stored stays.
    this.upsert = db.prepare(
      "INSERT INTO response_cache (key, body, expires_at) VALUES (@key, @body, @expiresAt) ON CONFLICT (key) DO UPDATE SET body = excluded.body, expires_at = excluded.expires_at WHERE response_cache.expires_at <= @now",
    );
    this.sweep = db.prepare("DELETE FROM response_cache WHERE expires_at <= ?");
  }

  async get(key: string): Promise<SharedCacheEntry | null> {
    const row = this.one.get(key);
    return row === undefined ? null : { body: row.body, expiresAt: row.expires_at };
  }

  async putIfVacant(key: string, entry: SharedCacheEntry, now: number): Promise<{ entry: SharedCacheEntry; stored: boolean }> {
    // One statement is atomic; a conflict left untouched shows as no change.
    const changed = this.upsert.run({ key, body: entry.body, expiresAt: entry.expiresAt, now }).changes === 1;
    if (changed) return { entry, stored: true };
    const current = await this.get(key);
    return current === null ? { entry, stored: false } : { entry: current, stored: false };
  }

  async sweepExpired(now: number): Promise<number> {
    return this.sweep.run(now).changes;
  }
}
