import type { SqliteDb } from "./database.js";
import type { WeightRow } from "../../domain/weights/update-weights.js";
import { weightRowsFromJson } from "../../domain/weights/weight-row-json.js";
import type { SignalWeightRepository, WeightCycle } from "../ports/signal-weights.js";

interface TableRow {
  cycle_at: number;
  version: number;
  before_rows: string;
  table_rows: string;
}

/** SPEC "Signal weights": the table as one row of `signal_weight_table` (ghost-ledger migration v2). */
export class SqliteSignalWeights implements SignalWeightRepository {
  private readonly write;
  private readonly read;
  private readonly readVersion;

  constructor(db: SqliteDb) {
    this.write = db.prepare<[{ cycleAt: number; before: string; rows: string }]>(
      `INSERT INTO signal_weight_table (id, cycle_at, version, before_rows, table_rows) VALUES (1, @cycleAt, 1, @before, @rows)
       ON CONFLICT (id) DO UPDATE SET cycle_at = excluded.cycle_at, version = version + 1, before_rows = excluded.before_rows, table_rows = excluded.table_rows`,
    );
    this.read = db.prepare<[], TableRow>("SELECT cycle_at, version, before_rows, table_rows FROM signal_weight_table WHERE id = 1");
    this.readVersion = db.prepare<[], { version: number }>("SELECT version FROM signal_weight_table WHERE id = 1");
  }

  async saveCycle(cycle: WeightCycle): Promise<void> {
    this.write.run({ cycleAt: cycle.cycleAt, before: JSON.stringify(cycle.before), rows: JSON.stringify(cycle.rows) });
  }

  async lastCycle(): Promise<WeightCycle | null> {
    const r = this.read.get();
    if (r === undefined) return null;
    return { cycleAt: r.cycle_at, before: weightRowsFromJson(JSON.parse(r.before_rows)), rows: weightRowsFromJson(JSON.parse(r.table_rows)) };
  }

  async all(): Promise<WeightRow[]> {
    return [...((await this.lastCycle())?.rows ?? [])];
  }

  async version(): Promise<string | null> {
    const r = this.readVersion.get();
    return r === undefined ? null : String(r.version);
  }
}
