import type { OutboxRecord, StoredReminder } from "../store/ports/actor-state.js";

/** What one turn changed, kept apart from the committed state until the turn commits. */
export class TurnChanges {
  readonly upserts = new Map<string, string>();
  readonly deletes = new Set<string>();
  readonly reminderUpserts = new Map<string, StoredReminder>();
  readonly reminderDeletes = new Set<string>();
  readonly outbox: OutboxRecord[] = [];

  isEmpty(): boolean {
    return (
      this.upserts.size === 0 &&
      this.deletes.size === 0 &&
      this.reminderUpserts.size === 0 &&
      this.reminderDeletes.size === 0 &&
      this.outbox.length === 0
    );
  }

  setReminder(reminder: StoredReminder): void {
    this.reminderDeletes.delete(reminder.name);
    this.reminderUpserts.set(reminder.name, reminder);
  }

  deleteReminder(name: string): void {
    this.reminderUpserts.delete(name);
    this.reminderDeletes.add(name);
  }
}
