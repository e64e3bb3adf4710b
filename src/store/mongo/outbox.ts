import type { Collection, Db } from "mongodb";
import { ACTOR_COLLECTION, actorDocId, decodeField, encodeField, type ActorDocument } from "./actor-document.js";
import type { ActorWriteQueue } from "./actor-write-queue.js";
import type { OutboxRecord } from "../ports/actor-state.js";
import type { OutboxStore } from "../ports/outbox.js";

/**
 * Pending events live in their producer's document (written with the turn); `oc` counts them so
 * the dispatcher finds those documents through an index instead of scanning every actor.
 */
export class MongoOutbox implements OutboxStore {
  private readonly actors: Collection<ActorDocument>;

  constructor(
    db: Db,
    private readonly queue: ActorWriteQueue,
  ) {
    this.actors = db.collection<ActorDocument>(ACTOR_COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.actors.createIndex({ oc: 1 });
  }

  async pending(limit: number, afterSeq = -Infinity): Promise<OutboxRecord[]> {
    const docs = await this.actors.find({ oc: { $gt: 0 } }, { projection: { t: 1, i: 1, o: 1 } }).toArray();
    const records: OutboxRecord[] = [];
    for (const doc of docs) {
      for (const [id, o] of Object.entries(doc.o ?? {})) {
        if (o.q <= afterSeq) continue;
        records.push({ id: decodeField(id), seq: o.q, topic: o.topic, envelope: o.env, actorType: doc.t, actorId: doc.i });
      }
    }
    return records.sort((a, b) => a.seq - b.seq).slice(0, limit);
  }

  async markDelivered(records: readonly OutboxRecord[]): Promise<void> {
    const byActor = new Map<string, string[]>();
    for (const r of records) {
      const docId = actorDocId({ type: r.actorType, id: r.actorId });
      const ids = byActor.get(docId) ?? [];
      ids.push(r.id);
      byActor.set(docId, ids);
    }
    await Promise.all(
      [...byActor].map(([_id, ids]) =>
        this.queue.run(_id, async () => {
          const unset = Object.fromEntries(ids.map((id) => [`o.${encodeField(id)}`, "" as const]));
          // Only entries still present are counted down, so a repeated acknowledgement is harmless.
          const doc = await this.actors.findOne({ _id }, { projection: { o: 1 } });
          const present = ids.filter((id) => doc?.o?.[encodeField(id)] !== undefined).length;
          if (present === 0) return;
          await this.actors.updateOne({ _id }, { $unset: unset, $inc: { oc: -present } });
        }),
      ),
    );
  }
}
