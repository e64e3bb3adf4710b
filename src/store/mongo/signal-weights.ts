import type { Collection, Db } from "mongodb";
import type { WeightRow } from "../../domain/weights/update-weights.js";
import type { SignalWeightRepository } from "../ports/signal-weights.js";

interface WeightDoc {
  /** `${regime}|${signal_key}`: the row key of SPEC, so an update cycle replaces rows in place. */
  _id: string;
  row: WeightRow;
}

/** SPEC "Signal weights" rows, one document per (regime, signal). */
export class MongoSignalWeights implements SignalWeightRepository {
  private readonly rows: Collection<WeightDoc>;

  constructor(db: Db) {
    this.rows = db.collection<WeightDoc>("signal_weights");
  }

  async ensureIndexes(): Promise<void> {
    // The _id is the row key; nothing else is queried.
  }

  async save(rows: readonly WeightRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.rows.bulkWrite(
      rows.map((r) => ({ replaceOne: { filter: { _id: `${r.regime}|${r.signal_key}` }, replacement: { row: r }, upsert: true } })),
      { ordered: true },
    );
  }

  async all(): Promise<WeightRow[]> {
    const docs = await this.rows.find({}).sort({ _id: 1 }).toArray();
    return docs.map((d) => d.row);
  }

  async version(): Promise<string | null> {
    const [newest, n] = await Promise.all([this.rows.find({}).sort({ "row.last_updated": -1 }).limit(1).toArray(), this.rows.countDocuments({})]);
    const top = newest[0];
    return top && n > 0 ? `${top.row.last_updated}#${n}` : null;
  }
}
