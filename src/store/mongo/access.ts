import type { Collection, Db } from "mongodb";
import { isDuplicateKeyError } from "./database.js";
import type { ApiKeyRecord, ApiKeyRepository, OwnerFields } from "../ports/api-keys.js";
import type { ConsumeResult, CounterRepository, CounterWindow, LeaseGrant } from "../ports/counters.js";
import type { SlidingHit, SlidingWindowRepository } from "../ports/sliding-windows.js";
import type { NewsletterRepository, PendingPage, Subscriber } from "../ports/newsletter.js";
import { leftIn } from "../../domain/access/lease-arithmetic.js";

/**
 * Documents stored before usage ids have none: they count against their own id. `rotatedFrom` is
 * the hash of the key a rotation replaced; `replacedBy` is set in the same single-document update
 * that deactivates a key: its successor's id after a rotation, null after a deactivation (absent
 * on keys deactivated before the field existed, until `ensureIndexes` settles them).
 */
type KeyDoc = Omit<ApiKeyRecord, "usageId"> & { _id: string; usageId?: string; rotatedFrom?: string; replacedBy?: string | null };

/**
 * Whether an active key is a real one, not the successor of a rotation that never finished: a
 * process that died between rotate's two writes, or a rotation that lost to another and died
 * before taking its key back. Nobody was ever shown such a key, but it is active and shares the
 * lineage, so without this the lineage (and its webhooks) would outlive its last real key. A
 * predecessor still active means the rotation is in flight or died: the predecessor is the key.
 */
function isRealKey(doc: Pick<KeyDoc, "id" | "rotatedFrom">, predecessor: Pick<KeyDoc, "active" | "replacedBy"> | undefined): boolean {
  if (doc.rotatedFrom === undefined || predecessor === undefined) return true;
  if (predecessor.active) return false;
  // Absent: deactivated by a version before `replacedBy` whose store was not opened since.
  return predecessor.replacedBy === undefined || predecessor.replacedBy === doc.id;
}

/**
 * An active successor nobody will ever be shown: its predecessor was deactivated and names
 * another successor (or none). With its predecessor still active the rotation may be in flight on
 * another replica, so a start leaves it (it is not the key meanwhile: the predecessor is); the
 * lineage's next rotation ends it.
 */
function isOrphanedSuccessor(doc: Pick<KeyDoc, "id" | "rotatedFrom">, predecessor: Pick<KeyDoc, "active" | "replacedBy"> | undefined): boolean {
  return !isRealKey(doc, predecessor) && predecessor?.active !== true;
}

export class MongoApiKeys implements ApiKeyRepository {
  private readonly keys: Collection<KeyDoc>;
  constructor(db: Db) {
    this.keys = db.collection<KeyDoc>("api_keys");
  }
  async ensureIndexes(): Promise<void> {
    await this.keys.createIndex({ hash: 1 }, { unique: true });
    await this.keys.createIndex({ usageId: 1, active: 1 });
    await this.keys.createIndex({ rotatedFrom: 1 });
    // Keys stored before usage ids: each is a lineage of its own. One update per key (the
    // portable subset has no update pipelines); a handful of documents, once.
    for (const d of await this.keys.find({ usageId: { $exists: false } }, { projection: { _id: 1 } }).toArray()) {
      await this.keys.updateOne({ _id: d._id, usageId: { $exists: false } }, { $set: { usageId: d._id } });
    }
    await this.settleReplacedBy();
    await this.endUnfinishedSuccessors();
  }
  /**
   * Keys deactivated before `replacedBy` existed: a finished rotation wrote its successor with
   * `createdAt` equal to the predecessor's `deactivatedAt` (one `at` for both writes); any other
   * deactivation replaced the key with nothing. Idempotent, so an interrupted start finishes it.
   */
  private async settleReplacedBy(): Promise<void> {
    for (const d of await this.keys.find({ active: false, replacedBy: { $exists: false } }, { projection: { _id: 1, hash: 1, deactivatedAt: 1 } }).toArray()) {
      const successor = d.deactivatedAt === null ? null : await this.keys.findOne({ rotatedFrom: d.hash, createdAt: d.deactivatedAt }, { projection: { _id: 1 } });
      await this.keys.updateOne({ _id: d._id, replacedBy: { $exists: false } }, { $set: { replacedBy: successor?._id ?? null } });
    }
  }
  /** Ends the active successors of rotations that never finished, so the key list shows them ended too. */
  private async endUnfinishedSuccessors(): Promise<void> {
    const successors = await this.keys.find({ active: true, rotatedFrom: { $exists: true } }, { projection: { _id: 1, id: 1, rotatedFrom: 1 } }).toArray();
    const predecessors = await this.predecessorsOf(successors);
    for (const d of successors) {
      const predecessor = predecessors.get(d.rotatedFrom ?? "");
      if (!isOrphanedSuccessor(d, predecessor)) continue;
      await this.keys.updateOne({ _id: d._id, active: true }, { $set: { active: false, deactivatedAt: predecessor?.deactivatedAt ?? null, replacedBy: null } });
    }
  }
  private async predecessorsOf(docs: readonly Pick<KeyDoc, "rotatedFrom">[]): Promise<Map<string, Pick<KeyDoc, "hash" | "active" | "replacedBy" | "deactivatedAt">>> {
    const hashes = docs.flatMap((d) => (d.rotatedFrom === undefined ? [] : [d.rotatedFrom]));
    if (hashes.length === 0) return new Map();
    const found = await this.keys.find({ hash: { $in: hashes } }, { projection: { _id: 0, hash: 1, active: 1, replacedBy: 1, deactivatedAt: 1 } }).toArray();
    return new Map(found.map((p) => [p.hash, p]));
  }
  async create(r: ApiKeyRecord): Promise<void> {
    await this.keys.insertOne({ _id: r.id, ...r });
  }
  async findByHash(hash: string): Promise<ApiKeyRecord | null> {
    const d = await this.keys.findOne({ hash }, { projection: { _id: 0 } });
    return d ? strip(d) : null;
  }
  async findById(id: string): Promise<ApiKeyRecord | null> {
    const d = await this.keys.findOne({ id }, { projection: { _id: 0 } });
    return d ? strip(d) : null;
  }
  async findActiveByUsageId(usageId: string): Promise<ApiKeyRecord | null> {
    const active = await this.keys.find({ usageId, active: true }, { projection: { _id: 0 } }).toArray();
    const predecessors = await this.predecessorsOf(active);
    const real = active.find((d) => isRealKey(d, d.rotatedFrom === undefined ? undefined : predecessors.get(d.rotatedFrom)));
    return real ? strip(real) : null;
  }
  async deactivate(hash: string, at: string): Promise<boolean> {
    if (!(await this.deactivateOne(hash, at, null))) return false;
    // A successor of a rotation of this key that never finished (see `isRealKey`) ends with it.
    // A finished rotation deactivated this key, so it cannot be one.
    await this.keys.updateMany({ rotatedFrom: hash, active: true }, { $set: { active: false, deactivatedAt: at, replacedBy: null } });
    return true;
  }
  private async deactivateOne(hash: string, at: string, replacedBy: string | null): Promise<boolean> {
    const r = await this.keys.updateOne({ hash, active: true }, { $set: { active: false, deactivatedAt: at, replacedBy } });
    return r.modifiedCount === 1;
  }
  async rotate(previousHash: string, next: ApiKeyRecord, at: string): Promise<boolean> {
    // No multi-document transactions on the portable subset. The new key is written first: until
    // it has been returned nobody holds it, so a crash before the old key is deactivated leaves
    // the caller's old key working (rotate again), never the caller without a key. The old key's
    // deactivation names its successor in the same update, which is what makes the new key real
    // (`isRealKey`): a successor left by a rotation that died or lost never counts.
    await this.keys.insertOne({ _id: next.id, ...next, rotatedFrom: previousHash });
    let replaced: boolean;
    try {
      replaced = await this.deactivateOne(previousHash, at, next.id);
    } catch (err) {
      // The update may have landed with its reply lost: then the new key is the caller's.
      const landed = await this.keys.findOne({ hash: previousHash }, { projection: { replacedBy: 1 } }).then(
        (d) => d?.replacedBy === next.id,
        () => null,
      );
      if (landed !== true) {
        if (landed === false) await this.keys.deleteOne({ _id: next.id }).catch(() => undefined);
        throw err;
      }
      replaced = true;
    }
    if (!replaced) {
      await this.keys.deleteOne({ _id: next.id });
      return false;
    }
    // Successors of earlier rotations of the same key that never finished end now. Best effort:
    // the rotation has landed, `isRealKey` already discounts them and the next start ends them.
    await this.keys
      .updateMany({ rotatedFrom: previousHash, active: true, _id: { $ne: next.id } }, { $set: { active: false, deactivatedAt: at, replacedBy: null } })
      .catch(() => undefined);
    return true;
  }
  async list(): Promise<ApiKeyRecord[]> {
    const docs = await this.keys.find({}, { projection: { _id: 0 } }).sort({ createdAt: 1, id: 1 }).toArray();
    return docs.map(strip);
  }
  async rewriteOwner(id: string, name: string | null, email: string | null, expected?: OwnerFields): Promise<boolean> {
    const unchanged = expected === undefined ? {} : { name: expected.name, email: expected.email };
    return (await this.keys.updateOne({ _id: id, ...unchanged }, { $set: { name, email } })).matchedCount === 1;
  }
}

function strip(d: Omit<KeyDoc, "_id">): ApiKeyRecord {
  return {
    id: d.id,
    usageId: d.usageId ?? d.id,
    hash: d.hash,
    prefix: d.prefix,
    tier: d.tier,
    name: d.name,
    email: d.email,
    active: d.active,
    createdAt: d.createdAt,
    deactivatedAt: d.deactivatedAt,
  };
}

/** Reservation attempts before giving up (each miss is another process's successful update). */
const RESERVE_ATTEMPTS = 50;

interface CounterDoc {
  _id: string;
  count: number;
  expiresAt: number;
}

/**
 * Conditional `$inc` upserts: the filter only matches while the window has room, so a full window
 * turns the upsert into a duplicate-key error instead of an increment. Exact on MongoDB, which
 * makes single-document updates atomic (FerretDB does not under concurrency: DECISIONS 6).
 */
export class MongoCounters implements CounterRepository {
  private readonly counters: Collection<CounterDoc>;
  constructor(db: Db) {
    this.counters = db.collection<CounterDoc>("counters");
  }
  async ensureIndexes(): Promise<void> {
    await this.counters.createIndex({ expiresAt: 1 });
  }
  async consumeAll(windows: readonly CounterWindow[], now: number): Promise<ConsumeResult> {
    const counts: number[] = [];
    for (let i = 0; i < windows.length; i++) {
      const w = windows[i] as CounterWindow;
      const n = await this.incrementIfRoom(w, now);
      if (n === null) {
        await Promise.all(windows.slice(0, i).map((prev) => this.undo(prev.bucket)));
        const current = await Promise.all(windows.map((x) => this.peek(x.bucket, now)));
        return { allowed: false, counts: current, blockedIndex: i };
      }
      counts.push(n);
    }
    return { allowed: true, counts, blockedIndex: null };
  }
  private async incrementIfRoom(w: CounterWindow, now: number): Promise<number | null> {
    // An expired window is reset in place before counting, so old counts never leak into a new window.
    await this.counters.updateOne({ _id: w.bucket, expiresAt: { $lte: now } }, { $set: { count: 0, expiresAt: w.expiresAt } });
    try {
      const doc = await this.counters.findOneAndUpdate(
        { _id: w.bucket, count: { $lt: w.limit } },
        { $inc: { count: 1 }, $setOnInsert: { expiresAt: w.expiresAt } },
        { upsert: true, returnDocument: "after" },
      );
      return doc?.count ?? null;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      // Either the window is full (the filter missed an existing document and the upsert
      // collided with it) or another request created the window first; only a retry on the
      // now-existing document tells which, so a race never refuses a request that has room.
      const doc = await this.counters.findOneAndUpdate({ _id: w.bucket, count: { $lt: w.limit } }, { $inc: { count: 1 } }, { returnDocument: "after" });
      return doc?.count ?? null;
    }
  }
  /**
   * The fast path is one conditional `$inc` upsert that matches only while the window has room
   * for the whole block. A miss (the window too full for it, expired, or created a moment ago by
   * another process) reads the window once and asks again for what is left, down to nothing.
   * Every attempt is a single-document update, so concurrent reservations never overdraw it.
   */
  async reserve(window: CounterWindow, want: number, now: number): Promise<LeaseGrant> {
    let asking = Math.min(Math.floor(want), window.limit);
    for (let attempt = 0; attempt < RESERVE_ATTEMPTS; attempt++) {
      if (asking <= 0) return { granted: 0, count: await this.peek(window.bucket, now) };
      try {
        const doc = await this.counters.findOneAndUpdate(
          { _id: window.bucket, expiresAt: { $gt: now }, count: { $lte: window.limit - asking } },
          { $inc: { count: asking }, $setOnInsert: { expiresAt: window.expiresAt } },
          { upsert: true, returnDocument: "after" },
        );
        if (doc) return { granted: asking, count: doc.count };
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
      const current = await this.counters.findOne({ _id: window.bucket });
      if (!current) continue;
      if (current.expiresAt <= now) {
        // A window of the same name that has ended restarts empty (once, whoever gets there first).
        await this.counters.updateOne({ _id: window.bucket, expiresAt: current.expiresAt }, { $set: { count: 0, expiresAt: window.expiresAt } });
        continue;
      }
      const left = leftIn(window.limit, current.count);
      if (left === 0) return { granted: 0, count: current.count };
      asking = Math.min(asking, left);
    }
    // Every miss means another process changed the window in between; this many in a row does
    // not happen at any load the service can take, so it is a fault, not a refusal.
    throw new Error(`quota window ${window.bucket}: no reservation after ${RESERVE_ATTEMPTS} attempts`);
  }
  async release(window: CounterWindow, unused: number, now: number): Promise<number> {
    if (unused > 0) {
      // Only into the window the lease came from (same end), and never below zero.
      const doc = await this.counters.findOneAndUpdate(
        { _id: window.bucket, expiresAt: window.expiresAt, count: { $gte: unused } },
        { $inc: { count: -unused } },
        { returnDocument: "after" },
      );
      if (doc) return doc.expiresAt > now ? doc.count : 0;
    }
    return this.peek(window.bucket, now);
  }
  private async undo(bucket: string): Promise<void> {
    await this.counters.updateOne({ _id: bucket, count: { $gt: 0 } }, { $inc: { count: -1 } });
  }
  async peek(bucket: string, now: number): Promise<number> {
    const d = await this.counters.findOne({ _id: bucket, expiresAt: { $gt: now } });
    return d?.count ?? 0;
  }
  async sweepExpired(now: number): Promise<number> {
    const r = await this.counters.deleteMany({ expiresAt: { $lte: now } });
    return r.deletedCount;
  }
}

interface HitDoc {
  bucket: string;
  at: number;
}

/**
 * Low-volume per-IP log. Insert first, then rank: a hit is admitted when it is among the window's
 * first `limit` hits in (time, id) order, else withdrawn. Count-then-insert admitted every one of
 * a burst of simultaneous requests (each counted before any inserted); now each sees the others
 * that were written before its read. Not exact under concurrency (documented in
 * docs/decisions.md): a hit written after another's read but ordered before it (same
 * millisecond, another replica's id or clock) can still admit one more. A withdrawn hit may
 * briefly crowd out another, which refuses rather than admits.
 */
export class MongoSlidingWindows implements SlidingWindowRepository {
  private readonly hits: Collection<HitDoc>;
  constructor(db: Db) {
    this.hits = db.collection<HitDoc>("sliding_hits");
  }
  async ensureIndexes(): Promise<void> {
    await this.hits.createIndex({ bucket: 1, at: 1 });
  }
  async hit(bucket: string, now: number, windowMs: number, limit: number): Promise<SlidingHit> {
    await this.hits.deleteMany({ bucket, at: { $lte: now - windowMs } });
    const { insertedId } = await this.hits.insertOne({ bucket, at: now });
    const first = await this.hits.find({ bucket }, { projection: { at: 1 } }).sort({ at: 1, _id: 1 }).limit(limit).toArray();
    if (first.some((d) => d._id.equals(insertedId))) return { allowed: true, count: first.length, retryAt: null };
    await this.hits.deleteOne({ _id: insertedId });
    return { allowed: false, count: first.length, retryAt: (first[0]?.at ?? now) + windowMs };
  }
  async sweepBefore(cutoff: number): Promise<number> {
    const r = await this.hits.deleteMany({ at: { $lte: cutoff } });
    return r.deletedCount;
  }
}

/**
 * Never part of a Subscriber: `claim` (who is sending the welcome e-mail, until when), the
 * unsubscribe link's token (until the welcome is out) and its hash.
 */
type SubscriberDoc = Omit<Subscriber, "key"> & { _id: string; claim?: { by: string; until: number } | null; unsubscribeToken?: string | null; unsubscribeHash?: string | null };

const SUBSCRIBER_ONLY = { claim: 0, unsubscribeToken: 0, unsubscribeHash: 0 } as const;

/** The document's `_id` is the subscriber's key: the address, or its blind index (`email` then holds the sealed address). */
function toSubscriber({ _id, email, name, subscribedAt, welcomeSentAt, welcomeAttempts }: SubscriberDoc): Subscriber {
  return { key: _id, email, name, subscribedAt, welcomeSentAt, welcomeAttempts };
}

export class MongoNewsletter implements NewsletterRepository {
  private readonly subs: Collection<SubscriberDoc>;
  constructor(db: Db) {
    this.subs = db.collection<SubscriberDoc>("newsletter_subscribers");
  }
  async ensureIndexes(): Promise<void> {
    await this.subs.createIndex({ welcomeSentAt: 1, subscribedAt: 1 });
    await this.subs.createIndex({ unsubscribeHash: 1 });
  }
  async subscribe(email: string, name: string | null, at: string, address?: string): Promise<boolean> {
    try {
      await this.subs.insertOne({ _id: email, email: address ?? email, name, subscribedAt: at, welcomeSentAt: null, welcomeAttempts: 0 });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }
  async recordWelcomeAttempt(email: string, sentAt: string | null, giveUpAt?: number): Promise<void> {
    // The claim makes the caller the only writer, so the two forms never race each other.
    const count = giveUpAt === undefined ? { $inc: { welcomeAttempts: 1 } } : { $max: { welcomeAttempts: giveUpAt } };
    await this.subs.updateOne({ _id: email }, { ...count, ...(sentAt ? { $set: { welcomeSentAt: sentAt, unsubscribeToken: null } } : {}) });
  }
  async pendingWelcome(maxAttempts: number, page: PendingPage = {}): Promise<Subscriber[]> {
    const since = page.since === undefined ? {} : { subscribedAt: { $gte: page.since } };
    const cursor = this.subs.find({ welcomeSentAt: null, welcomeAttempts: { $lt: maxAttempts }, ...since }, { projection: SUBSCRIBER_ONLY }).sort({ subscribedAt: 1 });
    const docs = await (page.limit === undefined ? cursor : cursor.limit(page.limit)).toArray();
    return docs.map(toSubscriber);
  }
  async get(email: string): Promise<Subscriber | null> {
    const doc = await this.subs.findOne({ _id: email }, { projection: SUBSCRIBER_ONLY });
    return doc === null ? null : toSubscriber(doc);
  }
  async listAll(): Promise<Subscriber[]> {
    return (await this.subs.find({}, { projection: SUBSCRIBER_ONLY }).sort({ subscribedAt: 1 }).toArray()).map(toSubscriber);
  }
  async rekey(from: string, to: string, address: string, name: string | null): Promise<void> {
    // `_id` cannot change: the document is copied under `to`, then the one under `from` goes. A
    // crash between the two leaves both (same unsubscribe link, so one click removes both; an
    // erasure removes every key of the address), and the next start's pass finds `to` taken and
    // drops `from`. Replicas starting together may move the same row at once: each copy but the
    // first is a duplicate, and each delete of `from` after the first removes nothing.
    if (from === to) {
      await this.subs.updateOne({ _id: from }, { $set: { email: address, name } });
      return;
    }
    const doc = await this.subs.findOne({ _id: from });
    if (doc === null) return;
    try {
      await this.subs.insertOne({ ...doc, _id: to, email: address, name });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
    await this.subs.deleteOne({ _id: from });
  }
  async remove(email: string): Promise<boolean> {
    return (await this.subs.deleteOne({ _id: email })).deletedCount === 1;
  }
  async unsubscribeToken(email: string, fresh: { readonly token: string; readonly hash: string }): Promise<string | null> {
    // `null` matches a missing field too: documents stored before links existed get one.
    await this.subs.updateOne({ _id: email, welcomeSentAt: null, unsubscribeHash: null }, { $set: { unsubscribeToken: fresh.token, unsubscribeHash: fresh.hash } });
    const doc = await this.subs.findOne({ _id: email, welcomeSentAt: null }, { projection: { unsubscribeToken: 1 } });
    return doc?.unsubscribeToken ?? null;
  }
  async removeByUnsubscribeHash(hash: string): Promise<boolean> {
    // Every document with the link: a re-key cut off between its copy and its delete leaves two.
    return (await this.subs.deleteMany({ unsubscribeHash: hash })).deletedCount > 0;
  }
  async claimWelcome(email: string, claimant: string, now: number, leaseMs: number, maxAttempts: number): Promise<boolean> {
    const r = await this.subs.updateOne(
      { _id: email, welcomeSentAt: null, welcomeAttempts: { $lt: maxAttempts }, $or: [{ claim: null }, { claim: { $exists: false } }, { "claim.by": claimant }, { "claim.until": { $lte: now } }] },
      { $set: { claim: { by: claimant, until: now + leaseMs } } },
    );
    return r.matchedCount === 1;
  }
  async releaseWelcome(email: string, claimant: string): Promise<void> {
    await this.subs.updateOne({ _id: email, "claim.by": claimant }, { $set: { claim: null } });
  }
}
