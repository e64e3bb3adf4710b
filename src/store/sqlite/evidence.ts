import type { SqliteDb } from "./database.js";
import type { SqliteMigration } from "./migrate.js";
import type { EvidenceDocument, EvidenceRepository } from "../ports/evidence.js";

export const evidenceMigrations: readonly SqliteMigration[] = [
  {
    component: "evidence",
    version: 1,
    up: `CREATE TABLE evidence (key TEXT PRIMARY KEY, at INTEGER NOT NULL, body TEXT NOT NULL);`,
  },
];

export class SqliteEvidence implements EvidenceRepository {
  private readonly upsert;
  private readonly one;

  constructor(db: SqliteDb) {
    this.upsert = db.prepare(
      "INSERT INTO evidence (key, at, body) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET at = excluded.at, body = excluded.body WHERE excluded.at >= evidence.at",
    );
    this.one = db.prepare<[string], { key: string; at: number; body: string }>("SELECT key, at, body FROM evidence WHERE key = ?");
  }

  async put(doc: EvidenceDocument): Promise<void> {
    this.upsert.run(doc.key, doc.at, JSON.stringify(doc.body));
  }

  async get(key: string): Promise<EvidenceDocument | null> {
    const row = this.one.get(key);
    return row ? { key: row.key, at: row.at, body: JSON.parse(row.body) as unknown } : null;
  }
}
