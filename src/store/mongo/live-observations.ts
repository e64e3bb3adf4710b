import type { AnyBulkWriteOperation, Collection, Db } from "mongodb";
import {
  observationId,
  type LiveObservation,
  type LiveObservationCursor,
  type LiveObservationLog,
  type StoredLiveObservation,
} from "../ports/live-observations.js";

interface ObservationDoc {
  /** `${stream}|${at}`: the natural key, so re-sending an observation replaces its own row. */
  _id: string;
  stream: string;
  at: number;
  payload: string;
  writtenAt: number;
}

/**
 * The live observation log as one collection. Only changed rows are written (read first, then
 * one bulk of upserts), so an unchanged re-send keeps its writtenAt and readers do not get it
 * again. Each stream has one writer (its poller actor), so the read-then-write needs no lock.
 */
export class MongoLiveObservations implements LiveObservationLog {
  private readonly docs: Collection<ObservationDoc>;

  constructor(db: Db) {
    this.docs = db.collection<ObservationDoc>("live_observations");
  }

  async ensureIndexes(): Promise<void> {
    await this.docs.createIndex({ writtenAt: 1, _id: 1 });
    await this.docs.createIndex({ at: 1 });
  }

  async put(items: readonly LiveObservation[], writtenAt: number): Promise<number> {
    if (items.length === 0) return 0;
    const byId = new Map(items.map((o) => [observationId(o.stream, o.at), o]));
    const existing = await this.docs.find({ _id: { $in: [...byId.keys()] } }, { projection: { payload: 1 } }).toArray();
    const have = new Map(existing.map((d) => [d._id, d.payload]));
    const ops: AnyBulkWriteOperation<ObservationDoc>[] = [];
    for (const [id, o] of byId) {
      if (have.get(id) === o.payload) continue;
      ops.push({ replaceOne: { filter: { _id: id }, replacement: { stream: o.stream, at: o.at, payload: o.payload, writtenAt }, upsert: true } });
    }
    if (ops.length > 0) await this.docs.bulkWrite(ops, { ordered: false });
    return ops.length;
  }

  async after(cursor: LiveObservationCursor, limit: number): Promise<StoredLiveObservation[]> {
    const docs = await this.docs
      .find({ $or: [{ writtenAt: { $gt: cursor.writtenAt } }, { writtenAt: cursor.writtenAt, _id: { $gt: cursor.id } }] })
      .sort({ writtenAt: 1, _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map((d) => ({ id: d._id, stream: d.stream, at: d.at, payload: d.payload, writtenAt: d.writtenAt }));
  }

  async pruneBefore(cutoff: number): Promise<number> {
    return (await this.docs.deleteMany({ at: { $lt: cutoff } })).deletedCount;
  }
}
