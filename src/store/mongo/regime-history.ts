import type { Collection, Db } from "mongodb";
import type { RegimeHistoryRepository, StoredRegime } from "../ports/regime-history.js";
import { regimeReportFromJson, regimeReportToJson } from "../../domain/regime/report-json.js";

interface RegimeDoc {
  /** The evaluation's market time: the natural key, so a retried turn's write replaces its own row. */
  _id: number;
  /**
   * The report as JSON text, not a sub-document: nothing queries inside it, and a server that
   * decodes every candidate document (FerretDB) reads one string instead of a dozen nested fields.
   */
  report: string;
}

/**
 * One document per hourly evaluation, reads by _id range (no extra index). Measured on FerretDB
 * 1.24 with 720 rows: latestAtOrBefore 36 ms as JSON text against 213 ms as a sub-document.
 */
export class MongoRegimeHistory implements RegimeHistoryRepository {
  private readonly docs: Collection<RegimeDoc>;

  constructor(db: Db) {
    this.docs = db.collection<RegimeDoc>("regime_history");
  }

  async ensureIndexes(): Promise<void> {
    // _id is indexed by every server; nothing else is queried.
  }

  async record(entry: StoredRegime): Promise<void> {
    await this.docs.updateOne({ _id: entry.at }, { $set: { report: JSON.stringify(regimeReportToJson(entry.report)) } }, { upsert: true });
  }

  async latestAtOrBefore(at: number): Promise<StoredRegime | null> {
    const doc = await this.docs.find({ _id: { $lte: at } }).sort({ _id: -1 }).limit(1).next();
    return doc ? fromDoc(doc) : null;
  }

  async between(from: number, to: number): Promise<StoredRegime[]> {
    const docs = await this.docs.find({ _id: { $gte: from, $lte: to } }).sort({ _id: 1 }).toArray();
    return docs.map(fromDoc);
  }

  async pruneBefore(at: number): Promise<number> {
    const result = await this.docs.deleteMany({ _id: { $lt: at } });
    return result.deletedCount;
  }
}

function fromDoc(doc: RegimeDoc): StoredRegime {
  return { at: doc._id, report: regimeReportFromJson(JSON.parse(doc.report)) };
}
