import type { Collection, Db } from "mongodb";
import { ACTOR_COLLECTION, actorDocId, decodeField, encodeField, type ActorDocument } from "./actor-document.js";
import type { ActorWriteQueue } from "./actor-write-queue.js";
import { isDuplicateKeyError } from "./database.js";
import { reminderClockOf, type ActorRef, type ActorStateStore, type StoredReminder, type TurnCommit } from "../ports/actor-state.js";

export class MongoActorStateStore implements ActorStateStore {
  private readonly actors: Collection<ActorDocument>;

  constructor(
    db: Db,
    private readonly queue: ActorWriteQueue,
  ) {
    this.actors = db.collection<ActorDocument>(ACTOR_COLLECTION);
  }

  /** The one index these documents need (pending outbox entries) is MongoOutbox's. */
  ensureIndexes(): Promise<void> {
    return Promise.resolve();
  }

  async loadState(actor: ActorRef): Promise<Map<string, string>> {
    const doc = await this.actors.findOne({ _id: actorDocId(actor) }, { projection: { s: 1 } });
    const state = new Map<string, string>();
    for (const [k, v] of Object.entries(doc?.s ?? {})) state.set(decodeField(k), v);
    return state;
  }

  commit(c: TurnCommit): Promise<void> {
    const set: Record<string, unknown> = {};
    const unset: Record<string, ""> = {};
    for (const [key, value] of c.upserts) set[`s.${encodeField(key)}`] = value;
    for (const key of c.deletes) unset[`s.${encodeField(key)}`] = "";
    for (const r of c.reminderUpserts) set[`r.${encodeField(r.name)}`] = { d: r.dueAt, p: r.periodMs, x: r.payload, c: r.clock };
    for (const name of c.reminderDeletes) unset[`r.${encodeField(name)}`] = "";
    for (const o of c.outbox) set[`o.${encodeField(o.id)}`] = { q: o.seq, topic: o.topic, env: o.envelope };
    const update: Record<string, unknown> = { $setOnInsert: { t: c.actor.type, i: c.actor.id } };
    if (Object.keys(set).length > 0) update.$set = set;
    if (Object.keys(unset).length > 0) update.$unset = unset;
    update.$inc = { oc: c.outbox.length };
    const _id = actorDocId(c.actor);
    return this.queue.run(_id, async () => {
      try {
        await this.actors.updateOne({ _id }, update, { upsert: true });
      } catch (err) {
        // Two processes creating the same actor document race on the insert; the loser's upsert
        // fails with a duplicate key although the document now exists: apply it as an update.
        if (!isDuplicateKeyError(err)) throw err;
        await this.actors.updateOne({ _id }, update, { upsert: true });
      }
    });
  }

  async loadReminders(): Promise<StoredReminder[]> {
    // Actors that never set a reminder have no `r` field and are not read at all.
    const docs = await this.actors.find({ r: { $exists: true } }, { projection: { t: 1, i: 1, r: 1 } }).toArray();
    const reminders: StoredReminder[] = [];
    for (const doc of docs) {
      for (const [name, r] of Object.entries(doc.r ?? {})) {
        reminders.push({ actorType: doc.t, actorId: doc.i, name: decodeField(name), clock: reminderClockOf(r.c), dueAt: r.d, periodMs: r.p, payload: r.x });
      }
    }
    return reminders;
  }
}
