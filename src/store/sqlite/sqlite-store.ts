import type { Store } from "../store.js";
import { openSqlite } from "./database.js";
import { applyMigrations } from "./migrate.js";
import { sqliteMigrations } from "./migrations.js";
import { SqliteApiKeys, SqliteCounters, SqliteNewsletter, SqliteSlidingWindows } from "./access.js";

export function openSqliteStore(path: string): Store {
  const db = openSqlite(path);
  applyMigrations(db, sqliteMigrations);
  return {
    kind: "sqlite",
    apiKeys: new SqliteApiKeys(db),
    counters: new SqliteCounters(db),
    slidingWindows: new SqliteSlidingWindows(db),
    newsletter: new SqliteNewsletter(db),
    async ping() {
      db.prepare("SELECT 1").get();
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
