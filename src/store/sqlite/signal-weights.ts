import type { SqliteDb } from "./database.js";
import type { WeightRow } from "../../domain/weights/update-weights.js";
import type { SignalWeightRepository } from "../ports/signal-weights.js";

/** SPEC "Signal weights" rows in `signal_weights` (created by the ghost-ledger migration v1). */
export class SqliteSignalWeights implements SignalWeightRepository {
  private readonly upsert;
  private readonly everyRow;
  private readonly newest;

  constructor(private readonly db: SqliteDb) {
    this.upsert = db.prepare(
      "INSERT INTO signal_weights (signal_key, regime, body) VALUES (?, ?, ?) ON CONFLICT (signal_key, regime) DO UPDATE SET body = excluded.body",
    );
    this.everyRow = db.prepare<[], { body: string }>("SELECT body FROM signal_weights ORDER BY regime, signal_key");
    this.newest = db.prepare<[], { newest: string | null; n: number }>(
      "SELECT max(json_extract(body, '$.last_updated')) AS newest, count(*) AS n FROM signal_weights",
    );
  }

  async version(): Promise<string | null> {
    const row = this.newest.get();
    return row && row.n > 0 ? `${row.newest ?? ""}#${row.n}` : null;
  }

  async save(rows: readonly WeightRow[]): Promise<void> {
    this.db.transaction(() => {
      for (const r of rows) this.upsert.run(r.signal_key, r.regime, JSON.stringify(r));
    }).immediate();
  }

  async all(): Promise<WeightRow[]> {
    return this.everyRow.all().map((r) => JSON.parse(r.body) as WeightRow);
  }
}
