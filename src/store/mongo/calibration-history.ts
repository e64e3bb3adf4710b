import { MongoBulkWriteError, type Collection, type Db, type Filter, type OptionalUnlessRequiredId } from "mongodb";
import { isDuplicateKeyError } from "./database.js";
import type { PricePoint } from "../../domain/calibration/price-path.js";
import type { Asset } from "../../domain/signals/signal-keys.js";
import { pricePointSchema, recordedRulingSchema, type CalibrationHistoryRepository, type RecordedRuling } from "../ports/calibration-history.js";

interface RulingDoc {
  /** `${stream}|${at}`: the natural key, so a second recording of an hour finds the first. */
  _id: string;
  stream: string;
  at: number;
  ruling: string;
  score: number;
}

interface CloseDoc {
  /** `${asset}|${at}`. */
  _id: string;
  asset: string;
  at: number;
  close: number;
}

/**
 * Inserts the documents whose `_id` is not stored yet; the stored ones stay as they are. Plain
 * inserts, not upserts: FerretDB runs each upsert of a bulk as its own statement (a first live
 * catch-up's ~13,000 rows took 80 s that way). A concurrent writer's duplicates are ignored.
 */
async function insertNew<T extends { _id: string }>(docs: Collection<T>, items: readonly T[]): Promise<void> {
  if (items.length === 0) return;
  const ids = items.map((d) => d._id);
  const stored = new Set((await docs.find({ _id: { $in: ids } } as Filter<T>, { projection: { _id: 1 } }).toArray()).map((d) => String(d._id)));
  const fresh = items.filter((d) => !stored.has(d._id)) as OptionalUnlessRequiredId<T>[];
  if (fresh.length === 0) return;
  try {
    await docs.insertMany(fresh, { ordered: false });
  } catch (err) {
    const errors = err instanceof MongoBulkWriteError ? [err.writeErrors].flat() : [];
    const onlyDuplicates = errors.length > 0 ? errors.every((e) => e.code === 11000) : isDuplicateKeyError(err);
    // A write-concern failure is not a duplicate: the rows may not be durable.
    const writeConcernFailed = err instanceof MongoBulkWriteError && err.result.getWriteConcernError() !== undefined;
    if (onlyDuplicates && !writeConcernFailed) return;
    throw err;
  }
}

/** Live mode's calibration history as two collections; the first recording of an hour stays. */
export class MongoCalibrationHistory implements CalibrationHistoryRepository {
  private readonly rulings: Collection<RulingDoc>;
  private readonly closes: Collection<CloseDoc>;

  constructor(db: Db) {
    this.rulings = db.collection<RulingDoc>("calibration_rulings");
    this.closes = db.collection<CloseDoc>("calibration_closes");
  }

  async ensureIndexes(): Promise<void> {
    await this.rulings.createIndex({ stream: 1, at: 1 });
    await this.rulings.createIndex({ at: 1 });
    await this.closes.createIndex({ asset: 1, at: 1 });
    await this.closes.createIndex({ at: 1 });
  }

  async recordRulings(rows: readonly RecordedRuling[]): Promise<void> {
    // Checked on the way in too: one bad row stored would make every read of its span throw.
    const valid = rows.map((r) => recordedRulingSchema.parse(r));
    await insertNew(this.rulings, valid.map((r) => ({ _id: `${r.stream}|${r.at}`, stream: r.stream, at: r.at, ruling: r.ruling, score: r.score })));
  }

  async rulingsBetween(streams: readonly string[], from: number, to: number): Promise<RecordedRuling[]> {
    if (streams.length === 0) return [];
    const docs = await this.rulings.find({ stream: { $in: [...streams] }, at: { $gte: from, $lte: to } }, { projection: { _id: 0, stream: 1, at: 1, ruling: 1, score: 1 } }).toArray();
    // Sorted here: a server sort by time over several streams cannot use the (stream, at) index.
    return docs.map((d) => recordedRulingSchema.parse(d)).sort((a, b) => a.at - b.at);
  }

  async recordCloses(asset: Asset, points: readonly PricePoint[]): Promise<void> {
    const valid = points.map((p) => pricePointSchema.parse(p));
    await insertNew(this.closes, valid.map((p) => ({ _id: `${asset}|${p.t}`, asset, at: p.t, close: p.close })));
  }

  async closesBetween(asset: Asset, from: number, to: number): Promise<PricePoint[]> {
    const docs = await this.closes.find({ asset, at: { $gte: from, $lte: to } }, { projection: { _id: 0, at: 1, close: 1 } }).sort({ at: 1 }).toArray();
    return docs.map((d) => pricePointSchema.parse({ t: d.at, close: d.close }));
  }

  async pruneBefore(cutoff: number): Promise<number> {
    const rulings = await this.rulings.deleteMany({ at: { $lt: cutoff } });
    const closes = await this.closes.deleteMany({ at: { $lt: cutoff } });
    return rulings.deletedCount + closes.deletedCount;
  }
}
