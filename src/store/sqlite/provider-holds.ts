import type { SqliteDb } from "./database.js";
import type { SqliteMigration } from "./migrate.js";
import type { ProviderHoldRepository } from "../ports/provider-holds.js";

export const providerHoldMigrations: readonly SqliteMigration[] = [
  {
    component: "provider-holds",
    version: 1,
    up: `CREATE TABLE provider_holds (
      provider TEXT PRIMARY KEY,
      until INTEGER NOT NULL
    );`,
  },
];

/** One row per provider; the upsert keeps the later end, so a shorter ask never cuts a ban short. */
export class SqliteProviderHolds implements ProviderHoldRepository {
  private readonly read;
  private readonly upsert;

  constructor(db: SqliteDb) {
    this.read = db.prepare<[string], { until: number }>("SELECT until FROM provider_holds WHERE provider = ?");
    this.upsert = db.prepare<[string, number]>(
      "INSERT INTO provider_holds (provider, until) VALUES (?, ?) ON CONFLICT (provider) DO UPDATE SET until = MAX(until, excluded.until)",
    );
  }

  async until(provider: string): Promise<number> {
    return this.read.get(provider)?.until ?? 0;
  }

  async extend(provider: string, until: number): Promise<void> {
    this.upsert.run(provider, until);
  }
}
