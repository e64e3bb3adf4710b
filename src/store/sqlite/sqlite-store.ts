import type { Store } from "../store.js";
import { openSqlite } from "./database.js";
import { applyMigrations } from "./migrate.js";
import { sqliteMigrations } from "./migrations.js";
import { SqliteApiKeys, SqliteCounters, SqliteNewsletter, SqliteSlidingWindows } from "./access.js";
import { SqliteActorStateStore } from "./actor-state.js";
import { SqliteOutbox } from "./outbox.js";
import { SqliteSignalHistory } from "./signal-history.js";

export function openSqliteStore(path: string): Store {
  const db = openSqlite(path);
  applyMigrations(db, sqliteMigrations);
  return {
    kind: "sqlite",
    apiKeys: new SqliteApiKeys(db),
    counters: new SqliteCounters(db),
    slidingWindows: new SqliteSlidingWindows(db),
    newsletter: new SqliteNewsletter(db),
    actorState: new SqliteActorStateStore(db),
    actorOutbox: new SqliteOutbox(db),
    signalHistory: new SqliteSignalHistory(db),
    async ping() {
      db.prepare("SELECT 1").get();
    },
    async close() {
      if (db.open) db.close();
    },
  };
}
