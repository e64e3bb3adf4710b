import { MongoBulkWriteError, type AnyBulkWriteOperation, type Collection, type Db } from "mongodb";
import { isDuplicateKeyError } from "./database.js";
import type { SignalHistoryPage, SignalHistoryPoint, SignalHistoryQuery, SignalHistoryRepository } from "../ports/signal-history.js";
import { SIGNAL_KEYS, type SignalKey } from "../../domain/signals/signal-keys.js";

interface PointDoc {
  /** `${signalKey}|${recordedAt}`: the natural key, so a second write of one instant is a duplicate. */
  _id: string;
  k: SignalKey;
  t: number;
  /**
   * Dense per-signal sequence number in time order (1, 2, …; pruning removes the low end): a
   * page is found by arithmetic instead of skip(), which walks every skipped document. Unique
   * per signal, so two writers can never share a number. A point inserted inside the series
   * holds `-t` (unique, never a real number) until the renumbering gives it its place.
   */
  q?: number;
  v: number;
  s: string;
}

/**
 * `seq`: the numbering's version. `renumber|<key>`: a renumbering to do from `from` on; every
 * point inserted inside the series raises `gen`, so a pass only clears the marker it saw.
 */
interface MetaDoc {
  _id: string;
  from?: number;
  gen?: number;
  version?: number;
}

/** 2: numbers unique under a `(k, q)` index. Version 1's index was not unique, and two racing writers could share a number. */
const SEQ_VERSION = 2;
const SEQ_INDEX = "k_1_q_-1";
const RENUMBER_BATCH = 1_000;
const idOf = (p: SignalHistoryPoint) => `${p.signalKey}|${p.recordedAt}`;
const toDoc = (p: SignalHistoryPoint, q: number): PointDoc => ({ _id: idOf(p), k: p.signalKey, t: p.recordedAt, q, v: p.value, s: p.source });
const unplaced = (p: SignalHistoryPoint) => toDoc(p, -p.recordedAt);
/** Matches the field as read: its value, or its absence (a marker written before `gen` existed). */
const same = (v: number | undefined) => (v === undefined ? { $exists: false } : v);

/** Index of the first failed write of an ordered insert when it failed on a duplicate (of `_id` or of a number) only. */
function duplicateAt(err: unknown): number | null {
  if (!(err instanceof MongoBulkWriteError)) return isDuplicateKeyError(err) ? 0 : null;
  const first = err.writeErrors;
  const e = Array.isArray(first) ? first[0] : first;
  return e && e.code === 11000 ? e.index : null;
}

/**
 * A plain collection with a compound index, not a time-series collection: time-series
 * collections allow no unique index (so no idempotent writes), and FerretDB has none at all.
 * Short field names: the series runs to millions of documents. Portable operations only
 * (DECISIONS 6): no transactions, so every multi-document change here is idempotent and is
 * finished by whichever writer appends next, in this process or another replica's.
 */
export class MongoSignalHistory implements SignalHistoryRepository {
  private readonly points: Collection<PointDoc>;
  private readonly meta: Collection<MetaDoc>;

  constructor(db: Db) {
    this.points = db.collection<PointDoc>("signal_history");
    this.meta = db.collection<MetaDoc>("signal_history_meta");
  }

  async ensureIndexes(): Promise<void> {
    await this.points.createIndex({ k: 1, t: -1 }, { unique: true });
    if ((await this.meta.findOne({ _id: "seq" }))?.version !== SEQ_VERSION) {
      // Documents from before the sequence, or numbered under the old non-unique index (where
      // racing writers could share a number): number each signal's series once, then let the
      // index refuse a shared number from here on.
      const old = (await this.points.indexes()).find((i) => i.name === SEQ_INDEX);
      if (old !== undefined && old.unique !== true) await this.points.dropIndex(SEQ_INDEX);
      for (const k of SIGNAL_KEYS) await this.renumber(k, Number.MIN_SAFE_INTEGER);
      await this.points.createIndex({ k: 1, q: -1 }, { unique: true, name: SEQ_INDEX });
      await this.meta.updateOne({ _id: "seq" }, { $set: { version: SEQ_VERSION } }, { upsert: true });
    }
    await this.finishRenumbering();
  }

  async append(points: readonly SignalHistoryPoint[]): Promise<number> {
    // The store's markers, not a flag of this process: a replica killed inside a renumbering
    // leaves it to whichever writer comes next, and numbering after it would build on stale numbers.
    await this.finishRenumbering();
    const byKey = new Map<SignalKey, SignalHistoryPoint[]>();
    for (const p of points) {
      const list = byKey.get(p.signalKey);
      if (list) list.push(p);
      else byKey.set(p.signalKey, [p]);
    }
    let added = 0;
    for (const [k, list] of byKey) added += await this.appendKey(k, list);
    return added;
  }

  private async appendKey(k: SignalKey, list: SignalHistoryPoint[]): Promise<number> {
    list.sort((a, b) => a.recordedAt - b.recordedAt);
    const newest = await this.points.find({ k }, { projection: { t: 1, q: 1 } }).sort({ t: -1 }).limit(1).next();
    const after = newest ? list.filter((p) => p.recordedAt > newest.t) : list;
    // A newest point still waiting for its number gives no base to count on.
    if (newest?.q !== undefined && newest.q <= 0) return this.insertOutOfOrder(k, list);
    let added = 0;
    if (after.length > 0) {
      // The recorder's case: numbers continue after the newest point. Ordered, so on a crash the
      // stored points are a prefix of the batch (numbers stay dense, the resume point exact).
      const base = newest?.q ?? 0;
      try {
        added += (await this.points.insertMany(after.map((p, i) => toDoc(p, base + 1 + i)), { ordered: true })).insertedCount;
      } catch (err) {
        const at = duplicateAt(err);
        if (at === null) throw err;
        // Another writer got there first, with this instant or with this number: what is left,
        // the refused point included, goes the slow, renumbering way.
        added += at;
        return added + (await this.insertOutOfOrder(k, after.slice(at)));
      }
    }
    const before = newest ? list.filter((p) => p.recordedAt <= newest.t) : [];
    if (before.length > 0) added += await this.insertOutOfOrder(k, before);
    return added;
  }

  /** Points that land inside the series (a racing writer's range): insert, then renumber behind them. */
  private async insertOutOfOrder(k: SignalKey, list: readonly SignalHistoryPoint[]): Promise<number> {
    const stored = new Set(
      (await this.points.find({ _id: { $in: list.map(idOf) } }, { projection: { _id: 1 } }).toArray()).map((d) => d._id),
    );
    const fresh = list.filter((p) => !stored.has(idOf(p)));
    const first = fresh[0];
    if (first === undefined) return 0;
    // Written before the first insert, removed after the renumbering: a crash in between is
    // finished by the next append anywhere or the next start.
    await this.meta.updateOne({ _id: `renumber|${k}` }, { $min: { from: first.recordedAt }, $inc: { gen: 1 } }, { upsert: true });
    let added = 0;
    for (const p of fresh) {
      try {
        await this.points.insertOne(unplaced(p));
        added++;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    }
    await this.finishRenumbering();
    return added;
  }

  private async finishRenumbering(): Promise<void> {
    const pending = await this.meta.find({ _id: { $regex: "^renumber\\|" } }).toArray();
    for (const m of pending) {
      try {
        await this.renumber(m._id.slice("renumber|".length) as SignalKey, m.from ?? Number.MIN_SAFE_INTEGER);
      } catch (err) {
        // A number taken by a writer racing this pass: the marker stays for the next one.
        if (duplicateAt(err) === null) throw err;
        continue;
      }
      // Only the marker this pass saw: a point that landed meanwhile keeps it for the next pass.
      await this.meta.deleteOne({ _id: m._id, from: same(m.from), gen: same(m.gen) });
    }
  }

  /**
   * Numbers the points of `k` at or after `from` densely in time order, after the last one
   * before. Idempotent. Newest first: numbers only ever move up (points are inserted, and only
   * the old end is pruned), so each number a point takes was already left by a newer point and
   * the unique index sees no collision unless another writer races this pass.
   */
  private async renumber(k: SignalKey, from: number): Promise<void> {
    const prev = await this.points.find({ k, t: { $lt: from } }, { projection: { q: 1 } }).sort({ t: -1 }).limit(1).next();
    let base = prev?.q;
    if (base === undefined || base <= 0) {
      // Nothing numbered before: the series keeps the start its oldest numbered point had (pruning keeps it).
      const oldest = await this.points.find({ k, q: { $gt: 0 } }, { projection: { q: 1 } }).sort({ q: 1 }).limit(1).next();
      base = Math.max(0, (oldest?.q ?? 1) - 1);
    }
    let q = base + (await this.points.countDocuments({ k, t: { $gte: from } }));
    let ops: AnyBulkWriteOperation<PointDoc>[] = [];
    for await (const d of this.points.find({ k, t: { $gte: from } }, { projection: { q: 1 } }).sort({ t: -1 })) {
      if (d.q !== q) ops.push({ updateOne: { filter: { _id: d._id }, update: { $set: { q } } } });
      q--;
      if (ops.length === RENUMBER_BATCH) {
        await this.points.bulkWrite(ops, { ordered: true });
        ops = [];
      }
    }
    if (ops.length > 0) await this.points.bulkWrite(ops, { ordered: true });
  }

  async latestRecordedAt(signalKey: SignalKey): Promise<number | null> {
    const doc = await this.points.find({ k: signalKey }, { projection: { t: 1 } }).sort({ t: -1 }).limit(1).next();
    return doc?.t ?? null;
  }

  async page(q: SignalHistoryQuery): Promise<SignalHistoryPage> {
    const [top, oldest] = await Promise.all([
      this.points.find({ k: q.signalKey, t: { $lte: q.asOf } }, { projection: { q: 1 } }).sort({ t: -1 }).limit(1).next(),
      this.points.find({ k: q.signalKey }, { projection: { q: 1 } }).sort({ t: 1 }).limit(1).next(),
    ]);
    if (top?.q === undefined) return { items: [], total: 0 };
    const low = oldest?.q ?? top.q;
    const total = top.q - low + 1;
    const first = top.q - (q.page - 1) * q.perPage;
    if (first < low) return { items: [], total };
    const docs = await this.points
      .find({ k: q.signalKey, q: { $lte: first, $gt: first - q.perPage } })
      .sort({ q: -1 })
      .limit(q.perPage)
      .toArray();
    return { items: docs.map((d) => ({ signalKey: d.k, recordedAt: d.t, value: d.v, source: d.s })), total };
  }

  async pruneBefore(cutoff: number): Promise<number> {
    // Our own sweep (FerretDB implements no TTL index, DECISIONS 6), per key so that each delete
    // walks the compound index instead of the whole collection. Only the old end goes, so the
    // numbers of the points that stay never change.
    let removed = 0;
    for (const k of SIGNAL_KEYS) removed += (await this.points.deleteMany({ k, t: { $lt: cutoff } })).deletedCount;
    return removed;
  }
}
