import { MongoBulkWriteError, type Collection, type Db } from "mongodb";
import { isDuplicateKeyError } from "./database.js";
import type { SignalHistoryPage, SignalHistoryPoint, SignalHistoryQuery, SignalHistoryRepository } from "../ports/signal-history.js";
import { SIGNAL_KEYS, type SignalKey } from "../../domain/signals/signal-keys.js";

interface PointDoc {
  /** `${signalKey}|${recordedAt}`: the natural key, so a second write of one instant is a duplicate. */
  _id: string;
  k: SignalKey;
  t: number;
  v: number;
  s: string;
}

const idOf = (p: SignalHistoryPoint) => `${p.signalKey}|${p.recordedAt}`;

/** Index of the first failed write of an ordered insert when it failed on a duplicate only. */
function duplicateAt(err: unknown): number | null {
  if (!(err instanceof MongoBulkWriteError)) return isDuplicateKeyError(err) ? 0 : null;
  const first = err.writeErrors;
  const e = Array.isArray(first) ? first[0] : first;
  return e && e.code === 11000 ? e.index : null;
}

/**
 * A plain collection with a compound index, not a time-series collection: time-series
 * collections allow no unique index (so no idempotent writes), and FerretDB has none at all.
 * Short field names: the series runs to millions of documents.
 */
export class MongoSignalHistory implements SignalHistoryRepository {
  private readonly points: Collection<PointDoc>;

  constructor(db: Db) {
    this.points = db.collection<PointDoc>("signal_history");
  }

  async ensureIndexes(): Promise<void> {
    await this.points.createIndex({ k: 1, t: -1 }, { unique: true });
  }

  async append(points: readonly SignalHistoryPoint[]): Promise<number> {
    // Ordered, so on a crash the stored points of a signal are a prefix of the batch and the
    // recorder's resume point (the newest stored instant) never skips an unwritten one. A
    // duplicate (a racing replica, a replayed range) is skipped and the rest written.
    let rest = points.map((p): PointDoc => ({ _id: idOf(p), k: p.signalKey, t: p.recordedAt, v: p.value, s: p.source }));
    let added = 0;
    while (rest.length > 0) {
      try {
        added += (await this.points.insertMany(rest, { ordered: true })).insertedCount;
        return added;
      } catch (err) {
        const at = duplicateAt(err);
        if (at === null) throw err;
        added += at;
        // Someone (a replica, an earlier run) wrote part of this range: drop everything already
        // stored in one query rather than meeting the duplicates one round trip at a time.
        const left = rest.slice(at + 1);
        const stored = new Set(
          (await this.points.find({ _id: { $in: left.map((d) => d._id) } }, { projection: { _id: 1 } }).toArray()).map((d) => d._id),
        );
        rest = left.filter((d) => !stored.has(d._id));
      }
    }
    return added;
  }

  async latestRecordedAt(signalKey: SignalKey): Promise<number | null> {
    const doc = await this.points.find({ k: signalKey }, { projection: { t: 1 } }).sort({ t: -1 }).limit(1).next();
    return doc?.t ?? null;
  }

  async page(q: SignalHistoryQuery): Promise<SignalHistoryPage> {
    const filter = { k: q.signalKey, t: { $lte: q.asOf } };
    const [docs, total] = await Promise.all([
      this.points
        .find(filter)
        .sort({ t: -1 })
        .skip((q.page - 1) * q.perPage)
        .limit(q.perPage)
        .toArray(),
      this.points.countDocuments(filter),
    ]);
    return { items: docs.map((d) => ({ signalKey: d.k, recordedAt: d.t, value: d.v, source: d.s })), total };
  }

  async pruneBefore(cutoff: number): Promise<number> {
    // Our own sweep (FerretDB implements no TTL index, DECISIONS 6), per key so that each delete
    // walks the compound index instead of the whole collection.
    let removed = 0;
    for (const k of SIGNAL_KEYS) removed += (await this.points.deleteMany({ k, t: { $lt: cutoff } })).deletedCount;
    return removed;
  }
}
