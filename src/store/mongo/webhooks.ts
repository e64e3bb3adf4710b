import type { Collection, Db } from "mongodb";
import { readSubscriptionRows, type SubscriptionList, type WebhookRepository } from "../ports/webhooks.js";
import type { SubscribableEventType } from "../../domain/webhooks/event-types.js";
import type { DeliveryRecord } from "../../domain/webhooks/delivery-state.js";
import type { WebhookSubscription } from "../../domain/webhooks/subscription.js";
import { deliveryRecordSchema, subscriptionSchema } from "../../webhook-delivery/state-schema.js";

interface SubscriptionDoc {
  _id: string;
  /** Owner key id, active flag and events: the fields queries filter on, beside the document. */
  o: string;
  a: boolean;
  e: string[];
  c: number;
  doc: WebhookSubscription;
}

interface DeliveryDoc {
  s: string;
  /** Attempt time (kept for reading the log by hand; the order is `i`). */
  t: number;
  /** The subscription's write order, as SQLite's `seq`. */
  i: number;
  doc: DeliveryRecord;
}

/**
 * One document per taken registration slot of a key, `_id` = "<owner>#<slot>": the unique `_id`
 * is what enforces the per-key limit across processes, with single-document atomicity only
 * (DECISIONS 6). Two registrations racing for the last slot cannot both insert it.
 */
interface SlotDoc {
  _id: string;
  /** The subscription holding the slot. */
  s: string;
  /** When it was taken (the subscription's creation time); absent on slots taken before. */
  t?: number;
}

/**
 * A slot whose subscription does not exist and that is older than this was left by a crash
 * (between taking the slot and writing the subscription, or between deleting the subscription and
 * freeing the slot) and may be reclaimed. Younger, it may be another replica's registration in
 * flight, which must not be robbed.
 */
const ORPHAN_SLOT_AFTER_MS = 60_000;

/** Slot numbers tried per earlier subscription: far above any per-key limit, a bound on a loop over the store. */
const MAX_BACKFILLED_SLOT = 1_000;

const toDoc = (s: WebhookSubscription): SubscriptionDoc => ({ _id: s.id, o: s.ownerKeyId, a: s.isActive, e: [...s.events], c: s.createdAt, doc: s });

/** Portable operations only (DECISIONS 6): single-document writes, indexes, sort/skip/limit. */
export class MongoWebhooks implements WebhookRepository {
  private readonly subs: Collection<SubscriptionDoc>;
  private readonly log: Collection<DeliveryDoc>;
  private readonly slots: Collection<SlotDoc>;

  constructor(db: Db) {
    this.subs = db.collection<SubscriptionDoc>("webhook_subscriptions");
    this.log = db.collection<DeliveryDoc>("webhook_deliveries");
    this.slots = db.collection<SlotDoc>("webhook_slots");
  }

  async ensureIndexes(): Promise<void> {
    await this.subs.createIndex({ o: 1, c: 1 });
    await this.subs.createIndex({ a: 1, e: 1 });
    await this.log.createIndex({ s: 1, i: -1 });
    await this.slots.createIndex({ s: 1 });
    await this.#slotEveryEarlierSubscription();
  }

  /**
   * Subscriptions written before slots existed (2026-11-24) hold none, so only the count in
   * `insertWithinLimit`, which is not atomic, kept their owners to the limit: two replicas
   * registering at once for a key with four of them both saw four and both inserted. Each gets a
   * slot at start, the owner's lowest free number in order of creation, so replicas starting
   * together name the same slot for the same subscription and the store keeps one.
   */
  async #slotEveryEarlierSubscription(): Promise<void> {
    const slotted = new Set((await this.slots.find({}, { projection: { s: 1 } }).toArray()).map((d) => d.s));
    const unslotted = (await this.subs.find({}, { projection: { o: 1, c: 1 } }).sort({ c: 1, _id: 1 }).toArray()).filter((d) => !slotted.has(d._id));
    for (const d of unslotted) {
      // Slotted since the first read (another replica's start, or its registration): done.
      if ((await this.slots.findOne({ s: d._id })) !== null) continue;
      for (let n = 0; n < MAX_BACKFILLED_SLOT; n++) {
        const id = `${d.o}#${n}`;
        try {
          await this.slots.insertOne({ _id: id, s: d._id, t: d.c });
          break;
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          const held = await this.slots.findOne({ _id: id });
          // Held by this subscription (another replica's start got there first): done.
          if (held?.s === d._id) break;
          // Freed between the two calls: the same number again, not the next one.
          if (held === null) n--;
        }
      }
    }
  }

  async insertWithinLimit(s: WebhookSubscription, limit: number): Promise<boolean> {
    // No multi-document transactions on FerretDB: the key's slots are documents with unique ids,
    // so the store itself refuses a sixth registration whichever replicas race (issue 17). The
    // count also covers subscriptions written before slots existed.
    if ((await this.subs.countDocuments({ o: s.ownerKeyId })) >= limit) return false;
    for (let slot = 0; slot < limit; slot++) {
      if (!(await this.#takeSlot(`${s.ownerKeyId}#${slot}`, s))) continue;
      try {
        await this.subs.insertOne(toDoc(s));
      } catch (err) {
        await this.slots.deleteOne({ _id: `${s.ownerKeyId}#${slot}` });
        throw err;
      }
      return true;
    }
    return false;
  }

  /** Takes the slot, reclaiming it if a crash orphaned it; false when a live subscription holds it. */
  async #takeSlot(id: string, s: WebhookSubscription): Promise<boolean> {
    const take = async (): Promise<boolean> => {
      try {
        await this.slots.insertOne({ _id: id, s: s.id, t: s.createdAt });
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    };
    if (await take()) return true;
    const held = await this.slots.findOne({ _id: id });
    if (held === null) return take();
    const orphaned = (held.t ?? 0) < s.createdAt - ORPHAN_SLOT_AFTER_MS && (await this.subs.countDocuments({ _id: held.s })) === 0;
    if (!orphaned) return false;
    // Conditional on the holder, so two replicas reclaiming at once free it once.
    if ((await this.slots.deleteOne({ _id: id, s: held.s })).deletedCount !== 1) return false;
    return take();
  }

  async get(id: string): Promise<WebhookSubscription | null> {
    const doc = await this.subs.findOne({ _id: id });
    return doc === null ? null : subscriptionSchema.parse(doc.doc);
  }

  async listByOwner(ownerKeyId: string): Promise<WebhookSubscription[]> {
    const docs = await this.subs.find({ o: ownerKeyId }).sort({ c: 1, _id: 1 }).toArray();
    return docs.map((d) => subscriptionSchema.parse(d.doc));
  }

  async listActiveFor(event: SubscribableEventType): Promise<SubscriptionList> {
    const docs = await this.subs.find({ a: true, e: event }).sort({ c: 1, _id: 1 }).toArray();
    return readSubscriptionRows(docs, (d) => d._id, (d) => d.doc);
  }

  async listActive(): Promise<SubscriptionList> {
    const docs = await this.subs.find({ a: true }).sort({ c: 1, _id: 1 }).toArray();
    return readSubscriptionRows(docs, (d) => d._id, (d) => d.doc);
  }

  async listAll(): Promise<SubscriptionList> {
    const docs = await this.subs.find({}).sort({ c: 1, _id: 1 }).toArray();
    return readSubscriptionRows(docs, (d) => d._id, (d) => d.doc);
  }

  async save(s: WebhookSubscription): Promise<void> {
    // No upsert: a subscription deleted while its actor was mid-turn stays deleted.
    await this.subs.updateOne({ _id: s.id }, { $set: { o: s.ownerKeyId, a: s.isActive, e: [...s.events], doc: s } });
  }

  async delete(id: string): Promise<boolean> {
    // The log first: a crash after it leaves a subscription with an empty log that a retried
    // DELETE finishes, where the other order left log rows that nothing would ever remove. Only
    // the subscription's own actor appends to its log, in the turn running this delete. A slot
    // left by a crash is reclaimed as orphaned (insertWithinLimit).
    await this.log.deleteMany({ s: id });
    const removed = await this.subs.deleteOne({ _id: id });
    // Every slot it holds (two replicas' starts could each have given an earlier one a slot).
    await this.slots.deleteMany({ s: id });
    return removed.deletedCount > 0;
  }

  /**
   * `i` numbers a subscription's records in the order they were written, continuing from the
   * newest stored: only the subscription's actor writes its log, one turn at a time, so the read
   * and the insert never race, and the order holds when the actor moves to another replica (a
   * per-process counter restarted at 0 there, and wall clocks may disagree).
   */
  async appendDeliveries(subscriptionId: string, records: readonly DeliveryRecord[], keep: number): Promise<void> {
    if (records.length === 0) return;
    const newest = await this.log.find({ s: subscriptionId }, { projection: { i: 1 } }).sort({ i: -1 }).limit(1).next();
    const from = (newest?.i ?? -1) + 1;
    await this.log.insertMany(records.map((r, k) => ({ s: subscriptionId, t: r.at, i: from + k, doc: r })));
    const old = await this.log.find({ s: subscriptionId }, { projection: { _id: 1 } }).sort({ i: -1 }).skip(keep).toArray();
    if (old.length > 0) await this.log.deleteMany({ _id: { $in: old.map((d) => d._id) } });
  }

  async deliveries(subscriptionId: string, limit: number): Promise<DeliveryRecord[]> {
    const docs = await this.log.find({ s: subscriptionId }).sort({ i: -1 }).limit(limit).toArray();
    return docs.map((d) => deliveryRecordSchema.parse(d.doc));
  }
}

function isDuplicateKey(err: unknown): boolean {
  return typeof err === "object" && err !== null && "code" in err && err.code === 11000;
}
