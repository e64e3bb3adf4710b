import Database from "better-sqlite3";
import { chmodSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";

export type SqliteDb = Database.Database;

/**
 * Opens the embedded store. WAL lets the CLI and a second service process share the file with
 * the running service; busy_timeout makes concurrent writers wait instead of failing. The store
 * holds webhook secrets as issued, key hashes and e-mail addresses, so its directory (when this
 * creates it) and its files are the owner's only, whatever the umask.
 */
export function openSqlite(path: string): SqliteDb {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  if (path !== ":memory:") for (const file of [path, `${path}-wal`, `${path}-shm`]) ownerOnly(file);
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  return db;
}

/** SQLite gives the WAL's side files the database file's mode when it creates them; ones left from before are set here. */
function ownerOnly(file: string): void {
  try {
    chmodSync(file, 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "EPERM") throw err;
  }
}
