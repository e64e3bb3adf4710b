import type { ReminderClock, StoredReminder } from "../../store/ports/actor-state.js";
import type { TurnChanges } from "../turn-changes.js";
import { activationKey } from "../activation.js";
import { DueQueue } from "../due-queue.js";

function reminderKey(type: string, id: string, name: string): string {
  return `${activationKey(type, id)}\u0000${name}`;
}

/**
 * The in-process host's copy of every durable reminder, ordered by due time in one queue per
 * clock (a wall reminder is due by the wall clock whatever the market clock does). It mirrors the
 * store: loaded at start, then changed only by committed turns, so what fires is what a restart
 * would find. A reminder taken for firing stays out of the queues until its turn finished, so a
 * slow actor never gets the same reminder twice.
 */
export class ReminderBook {
  private readonly reminders = new Map<string, StoredReminder>();
  private readonly queues: Readonly<Record<ReminderClock, DueQueue<string>>> = { market: new DueQueue(), wall: new DueQueue() };
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
      this.unqueue(key);
    }
  }

  /** Reminders on `clock` due at `now` (that clock's time), marked as firing. */
  takeDue(clock: ReminderClock, now: number): StoredReminder[] {
    const due: StoredReminder[] = [];
    for (const { key } of this.queues[clock].takeDue(now)) {
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
    if (now) this.enqueue(key, now);
  }

  /** The earliest due time on `clock`, for tests and metrics. */
  nextDue(clock: ReminderClock): number | undefined {
    return this.queues[clock].peek();
  }

  private put(r: StoredReminder): void {
    const key = reminderKey(r.actorType, r.actorId, r.name);
    this.reminders.set(key, r);
    if (!this.firing.has(key)) this.enqueue(key, r);
  }

  /** Queued on its own clock only: a reminder re-set on the other clock leaves its old queue. */
  private enqueue(key: string, r: StoredReminder): void {
    this.unqueue(key);
    this.queues[r.clock].schedule(key, r.dueAt);
  }

  private unqueue(key: string): void {
    this.queues.market.cancel(key);
    this.queues.wall.cancel(key);
  }
}
