import type { Collection, Db } from "mongodb";
import type { WeightRow } from "../../domain/weights/update-weights.js";
import { weightRowsFromJson } from "../../domain/weights/weight-row-json.js";
import type { SignalWeightRepository, WeightCycle } from "../ports/signal-weights.js";

const TABLE_ID = "table";

interface TableDoc {
  _id: string;
  cycleAt: number;
  version: number;
  before: WeightRow[];
  rows: WeightRow[];
}

/** Rows as stored before the table was one document: one per (regime, signal). */
interface LegacyRowDoc {
  _id: string;
  row: WeightRow;
}

/**
 * SPEC "Signal weights": the whole table as one document, so a cycle is one atomic write (a
 * bulk write of one document per row let a reader see half a cycle) and the version a counter.
 */
export class MongoSignalWeights implements SignalWeightRepository {
  private readonly table: Collection<TableDoc>;
  private readonly legacy: Collection<LegacyRowDoc>;

  constructor(db: Db) {
    this.table = db.collection<TableDoc>("signal_weight_table");
    this.legacy = db.collection<LegacyRowDoc>("signal_weights");
  }

  async ensureIndexes(): Promise<void> {
    // Rows stored one per document before: they move in as a cycle at mark 0 that started from
    // itself (insert only if no table exists, so a second replica's start changes nothing).
    if ((await this.table.countDocuments({ _id: TABLE_ID })) > 0) return;
    const rows = weightRowsFromJson((await this.legacy.find({}).toArray()).map((d) => d.row));
    if (rows.length === 0) return;
    rows.sort((a, b) => a.regime.localeCompare(b.regime) || a.signal_key.localeCompare(b.signal_key));
    await this.table.updateOne({ _id: TABLE_ID }, { $setOnInsert: { cycleAt: 0, version: 1, before: rows, rows } }, { upsert: true });
  }

  async saveCycle(cycle: WeightCycle): Promise<void> {
    await this.table.updateOne(
      { _id: TABLE_ID },
      { $set: { cycleAt: cycle.cycleAt, before: [...cycle.before], rows: [...cycle.rows] }, $inc: { version: 1 } },
      { upsert: true },
    );
  }

  async lastCycle(): Promise<WeightCycle | null> {
    const d = await this.table.findOne({ _id: TABLE_ID });
    return d === null ? null : { cycleAt: d.cycleAt, before: weightRowsFromJson(d.before), rows: weightRowsFromJson(d.rows) };
  }

  async all(): Promise<WeightRow[]> {
    return [...((await this.lastCycle())?.rows ?? [])];
  }

  async version(): Promise<string | null> {
    const d = await this.table.findOne({ _id: TABLE_ID }, { projection: { version: 1 } });
    return d === null ? null : String(d.version);
  }
}
