import type { SqliteDb } from "./database.js";
import type { OutboxRecord } from "../ports/actor-state.js";
import type { OutboxStore } from "../ports/outbox.js";

interface OutboxRow {
  id: string;
  seq: number;
  topic: string;
  envelope: string;
  actor_type: string;
  actor_id: string;
}

/** Reads the actor_outbox table that SqliteActorStateStore writes inside each turn's transaction. */
export class SqliteOutbox implements OutboxStore {
  private readonly selectPending;
  private readonly selectPendingAfter;
  private readonly remove;
  private readonly removeAll;

  constructor(db: SqliteDb) {
    this.selectPending = db.prepare<[number], OutboxRow>("SELECT * FROM actor_outbox ORDER BY seq LIMIT ?");
    this.selectPendingAfter = db.prepare<[number, number], OutboxRow>("SELECT * FROM actor_outbox WHERE seq > ? ORDER BY seq LIMIT ?");
    this.remove = db.prepare("DELETE FROM actor_outbox WHERE id = ?");
    this.removeAll = db.transaction((ids: readonly string[]) => {
      for (const id of ids) this.remove.run(id);
    });
  }

  pending(limit: number, afterSeq?: number): Promise<OutboxRecord[]> {
    const rows = afterSeq === undefined ? this.selectPending.all(limit) : this.selectPendingAfter.all(afterSeq, limit);
    return Promise.resolve(
      rows.map((r) => ({
        id: r.id,
        seq: r.seq,
        topic: r.topic,
        envelope: r.envelope,
        actorType: r.actor_type,
        actorId: r.actor_id,
      })),
    );
  }

  markDelivered(records: readonly OutboxRecord[]): Promise<void> {
    this.removeAll(records.map((r) => r.id));
    return Promise.resolve();
  }
}
