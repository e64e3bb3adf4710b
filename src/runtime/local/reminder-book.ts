import type { StoredReminder } from "../../store/ports/actor-state.js";
import type { TurnChanges } from "../turn-changes.js";
import { activationKey } from "../activation.js";
import { DueQueue } from "../due-queue.js";

function reminderKey(type: string, id: string, name: string): string {
  return `${activationKey(type, id)}\u0000${name}`;
}

/**
 * The in-process host's copy of every durable reminder, ordered by due time. It mirrors the
 * store: loaded at start, then changed only by committed turns, so what fires is what a restart
 * would find. A reminder taken for firing stays out of the queue until its turn finished, so a
 * slow actor never gets the same reminder twice.
 */
export class ReminderBook {
  private readonly reminders = new Map<string, StoredReminder>();
  private readonly queue = new DueQueue<string>();
  private readonly firing = new Set<string>();

  get size(): number {
    return this.reminders.size;
  }

  load(reminders: readonly StoredReminder[]): void {
    for (const r of reminders) this.put(r);
  }

  /** Applies what a committed turn did to its actor's reminders. */
  applyCommitted(type: string, id: string, turn: TurnChanges): void {
    for (const r of turn.reminderUpserts.values()) this.put(r);
    for (const name of turn.reminderDeletes) {
      const key = reminderKey(type, id, name);
      this.reminders.delete(key);
      this.queue.cancel(key);
    }
  }

  /** Reminders due at `now`, marked as firing. */
  takeDue(now: number): StoredReminder[] {
    const due: StoredReminder[] = [];
    for (const { key } of this.queue.takeDue(now)) {
      const reminder = this.reminders.get(key);
      if (!reminder) continue;
      this.firing.add(key);
      due.push(reminder);
    }
    return due;
  }

  /**
   * The reminder as it stands when its turn starts: a turn that ran in between may have deleted
   * it (undefined) or moved it (check its dueAt).
   */
  current(r: StoredReminder): StoredReminder | undefined {
    return this.reminders.get(reminderKey(r.actorType, r.actorId, r.name));
  }

  /** The firing's turn is over: the reminder goes back in the queue as it now stands, if it still exists. */
  finished(r: StoredReminder): void {
    const key = reminderKey(r.actorType, r.actorId, r.name);
    this.firing.delete(key);
    const now = this.reminders.get(key);
    if (now) this.queue.schedule(key, now.dueAt);
  }

  /** The earliest due time, for tests and metrics. */
  nextDue(): number | undefined {
    return this.queue.peek();
  }

  private put(r: StoredReminder): void {
    const key = reminderKey(r.actorType, r.actorId, r.name);
    this.reminders.set(key, r);
    if (!this.firing.has(key)) this.queue.schedule(key, r.dueAt);
  }
}
