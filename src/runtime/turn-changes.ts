import type { OutboxRecord, StoredReminder } from "../store/ports/actor-state.js";

/** What one turn changed, kept apart from the committed state until the turn commits. */
export class TurnChanges {
  readonly upserts = new Map<string, string>();
  readonly deletes = new Set<string>();
  readonly reminderUpserts = new Map<string, StoredReminder>();
  readonly reminderDeletes = new Set<string>();
  readonly outbox: OutboxRecord[] = [];
  /**
   * The id and answer of the call this turn serves, for a host that remembers calls so that a
   * repeated delivery is answered instead of run again (dapr/call-memory.ts). Not a change by
   * itself: a turn that changed nothing else commits nothing.
   */
  served: { readonly id: string; readonly answer: string } | null = null;

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
