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
   * page is found by arithmetic instead of skip(), which walks every skipped document. Absent
   * on documents written before it existed until start-up numbers them.
   */
  q?: number;
  v: number;
  s: string;
}

/** `seq`: the numbering of existing documents is done. `renumber|<key>`: a renumbering in progress. */
interface MetaDoc {
  _id: string;
  from?: number;
  version?: number;
}

const SEQ_VERSION = 1;
const RENUMBER_BATCH = 1_000;
const idOf = (p: SignalHistoryPoint) => `${p.signalKey}|${p.recordedAt}`;
const toDoc = (p: SignalHistoryPoint, q: number): PointDoc => ({ _id: idOf(p), k: p.signalKey, t: p.recordedAt, q, v: p.value, s: p.source });

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
 * Short field names: the series runs to millions of documents. Portable operations only
 * (DECISIONS 6): no transactions, so every multi-document change here is idempotent and is
 * either finished by the next writer or at the next start.
 */
export class MongoSignalHistory implements SignalHistoryRepository {
  private readonly points: Collection<PointDoc>;
  private readonly meta: Collection<MetaDoc>;
  /** Set while this process may have left a renumbering unfinished (a failed write), so the hot path skips the check. */
  private renumberPending = true;

  constructor(db: Db) {
    this.points = db.collection<PointDoc>("signal_history");
    this.meta = db.collection<MetaDoc>("signal_history_meta");
  }

  async ensureIndexes(): Promise<void> {
    await this.points.createIndex({ k: 1, t: -1 }, { unique: true });
    // Not unique: renumbering after an out-of-order write moves numbers one document at a time.
    await this.points.createIndex({ k: 1, q: -1 });
    if ((await this.meta.findOne({ _id: "seq" }))?.version !== SEQ_VERSION) {
      // Documents from before the sequence existed: number each signal's series once.
      for (const k of SIGNAL_KEYS) await this.renumber(k, Number.MIN_SAFE_INTEGER);
      await this.meta.updateOne({ _id: "seq" }, { $set: { version: SEQ_VERSION } }, { upsert: true });
    }
    await this.finishRenumbering();
  }

  async append(points: readonly SignalHistoryPoint[]): Promise<number> {
    if (this.renumberPending) await this.finishRenumbering();
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
        // Another writer got there first: what is left goes the slow, renumbering way.
        added += at;
        return added + (await this.insertOutOfOrder(k, after.slice(at + 1)));
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
    // finished by the next append or the next start.
    this.renumberPending = true;
    await this.meta.updateOne({ _id: `renumber|${k}` }, { $min: { from: first.recordedAt } }, { upsert: true });
    let added = 0;
    for (const p of fresh) {
      try {
        await this.points.insertOne(toDoc(p, 0));
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
      await this.renumber(m._id.slice("renumber|".length) as SignalKey, m.from ?? Number.MIN_SAFE_INTEGER);
      await this.meta.deleteOne({ _id: m._id, from: m.from });
    }
    this.renumberPending = false;
  }

  /** Numbers the points of `k` at or after `from` densely in time order, after the last one before. Idempotent. */
  private async renumber(k: SignalKey, from: number): Promise<void> {
    const prev = await this.points.find({ k, t: { $lt: from } }, { projection: { q: 1 } }).sort({ t: -1 }).limit(1).next();
    let base = prev?.q;
    if (base === undefined) {
      // Nothing before: the series keeps the start its oldest numbered point had (pruning keeps it).
      const oldest = await this.points.find({ k, q: { $gt: 0 } }, { projection: { q: 1 } }).sort({ q: 1 }).limit(1).next();
      base = Math.max(0, (oldest?.q ?? 1) - 1);
    }
    let ops: AnyBulkWriteOperation<PointDoc>[] = [];
    let q = base;
    for await (const d of this.points.find({ k, t: { $gte: from } }, { projection: { q: 1 } }).sort({ t: 1 })) {
      q++;
      if (d.q === q) continue;
      ops.push({ updateOne: { filter: { _id: d._id }, update: { $set: { q } } } });
      if (ops.length === RENUMBER_BATCH) {
        await this.points.bulkWrite(ops, { ordered: false });
        ops = [];
      }
    }
    if (ops.length > 0) await this.points.bulkWrite(ops, { ordered: false });
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
