import { z } from "zod";
import type { TurnChanges } from "../turn-changes.js";

/**
 * The host's own state key for reminder changes not yet registered with daprd. Reminders are
 * Dapr's, outside the state transaction, so a turn's reminder changes are written into its
 * transaction here and registered after it: a registration that fails (daprd restarting, the
 * scheduler slow) is tried again instead of being lost while the state that says "scheduled"
 * stays committed.
 */
export const REMINDER_JOURNAL_KEY = "__reminders";

const journalEntrySchema = z.discriminatedUnion("op", [
  z.object({
    op: z.literal("set"),
    name: z.string(),
    clock: z.enum(["wall", "market"]),
    /** Absolute, on the reminder's clock: a late registration keeps the instant. */
    dueAt: z.number(),
    periodMs: z.number().nullable(),
    payload: z.string(),
  }),
  z.object({ op: z.literal("delete"), name: z.string() }),
]);

export const reminderJournalSchema = z.array(journalEntrySchema);
export type JournalEntry = z.infer<typeof journalEntrySchema>;

/** The journal with a turn's reminder changes on top: one entry per name, the latest winning. */
export function withTurnReminders(journal: readonly JournalEntry[], turn: TurnChanges): JournalEntry[] {
  const byName = new Map(journal.map((entry) => [entry.name, entry]));
  for (const r of turn.reminderUpserts.values()) {
    byName.delete(r.name);
    byName.set(r.name, { op: "set", name: r.name, clock: r.clock, dueAt: r.dueAt, periodMs: r.periodMs, payload: r.payload });
  }
  for (const name of turn.reminderDeletes) {
    byName.delete(name);
    byName.set(name, { op: "delete", name });
  }
  return [...byName.values()];
}
