import type { SqliteDb } from "./database.js";

/**
 * One schema change of one component. Versions are per component, so capabilities evolve their
 * tables independently; a migration runs once, inside a transaction, and is recorded.
 */
export interface SqliteMigration {
  readonly component: string;
  readonly version: number;
  readonly up: string;
}

export function applyMigrations(db: SqliteDb, migrations: readonly SqliteMigration[]): void {
  db.exec(
    `CREATE TABLE IF NOT EXISTS schema_migrations (
       component TEXT NOT NULL, version INTEGER NOT NULL, applied_at TEXT NOT NULL,
       PRIMARY KEY (component, version))`,
  );
  const applied = db.prepare("SELECT 1 FROM schema_migrations WHERE component = ? AND version = ?");
  const record = db.prepare("INSERT INTO schema_migrations (component, version, applied_at) VALUES (?, ?, ?)");
  const ordered = [...migrations].sort((a, b) => a.component.localeCompare(b.component) || a.version - b.version);
  for (const m of ordered) {
    // IMMEDIATE: two processes starting on one file must not both run the same migration.
    db.transaction(() => {
      if (applied.get(m.component, m.version)) return;
      db.exec(m.up);
      record.run(m.component, m.version, new Date().toISOString());
    }).immediate();
  }
}
