import type { ActorRef, ActorStateStore, OutboxRecord, StoredReminder, TurnCommit } from "../ports/actor-state.js";
import type { OutboxStore } from "../ports/outbox.js";

/** Everything one actor holds in a state store: its state (key → JSON text) and its reminders. */
export interface ActorHoldings {
  readonly actor: ActorRef;
  readonly state: ReadonlyMap<string, string>;
  readonly reminders: readonly StoredReminder[];
}

/**
 * Actor state in this process's memory, for a host whose actors hand their state on before the
 * process goes on (the Dapr warm-up runs them here, then moves what they hold into Dapr's state
 * store). Commits are atomic by construction: one synchronous update of the maps.
 */
export class MemoryActorStateStore implements ActorStateStore, OutboxStore {
  private readonly states = new Map<string, { actor: ActorRef; state: Map<string, string> }>();
  private readonly reminders = new Map<string, StoredReminder>();
  private readonly outbox: OutboxRecord[] = [];

  loadState(actor: ActorRef): Promise<Map<string, string>> {
    return Promise.resolve(new Map(this.states.get(refKey(actor))?.state));
  }

  commit(change: TurnCommit): Promise<void> {
    const key = refKey(change.actor);
    const entry = this.states.get(key) ?? { actor: change.actor, state: new Map<string, string>() };
    for (const [k, v] of change.upserts) entry.state.set(k, v);
    for (const k of change.deletes) entry.state.delete(k);
    this.states.set(key, entry);
    for (const r of change.reminderUpserts) this.reminders.set(reminderKey(r.actorType, r.actorId, r.name), r);
    for (const name of change.reminderDeletes) this.reminders.delete(reminderKey(change.actor.type, change.actor.id, name));
    this.outbox.push(...change.outbox);
    return Promise.resolve();
  }

  loadReminders(): Promise<StoredReminder[]> {
    return Promise.resolve([...this.reminders.values()]);
  }

  pending(limit: number, afterSeq = -Infinity): Promise<OutboxRecord[]> {
    return Promise.resolve(
      this.outbox
        .filter((r) => r.seq > afterSeq)
        .sort((a, b) => a.seq - b.seq)
        .slice(0, limit),
    );
  }

  markDelivered(records: readonly OutboxRecord[]): Promise<void> {
    const ids = new Set(records.map((r) => r.id));
    const kept = this.outbox.filter((r) => !ids.has(r.id));
    this.outbox.splice(0, this.outbox.length, ...kept);
    return Promise.resolve();
  }

  /** Every actor with state or reminders, each with what it holds now. */
  holdings(): ActorHoldings[] {
    const byActor = new Map<string, { actor: ActorRef; state: Map<string, string>; reminders: StoredReminder[] }>();
    for (const [key, entry] of this.states) byActor.set(key, { actor: entry.actor, state: new Map(entry.state), reminders: [] });
    for (const r of this.reminders.values()) {
      const actor = { type: r.actorType, id: r.actorId };
      const key = refKey(actor);
      const entry = byActor.get(key) ?? { actor, state: new Map<string, string>(), reminders: [] };
      entry.reminders.push(r);
      byActor.set(key, entry);
    }
    return [...byActor.values()].filter((h) => h.state.size > 0 || h.reminders.length > 0);
  }
}

function refKey(actor: ActorRef): string {
  return `${actor.type}\u0000${actor.id}`;
}

function reminderKey(type: string, id: string, name: string): string {
  return `${type}\u0000${id}\u0000${name}`;
}
