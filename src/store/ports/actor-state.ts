/** Which actor: its registered type name and its id. */
export interface ActorRef {
  readonly type: string;
  readonly id: string;
}

/**
 * The clock a reminder runs on, chosen by the actor that sets it: "market" for schedules about
 * the market (replay or live time), "wall" for schedules about the outside world (a webhook
 * receiver's retries), which must fire on time whatever the replay does.
 */
export type ReminderClock = "wall" | "market";

/** Records written before reminders named their clock ran on market time. */
export function reminderClockOf(stored: string | null | undefined): ReminderClock {
  return stored === "wall" ? "wall" : "market";
}

/** A durable reminder as stored; `dueAt` and `periodMs` are milliseconds of its `clock`. */
export interface StoredReminder {
  readonly actorType: string;
  readonly actorId: string;
  readonly name: string;
  readonly clock: ReminderClock;
  readonly dueAt: number;
  /** null for a one-shot reminder. */
  readonly periodMs: number | null;
  /** The payload as JSON text. */
  readonly payload: string;
}

/** An event written in a producer's turn, handed to the bus after the commit (at least once). */
export interface OutboxRecord {
  readonly id: string;
  readonly topic: string;
  /** The whole envelope as JSON text, so a redelivery carries exactly the original. */
  readonly envelope: string;
  readonly actorType: string;
  readonly actorId: string;
  /** Order of emission within the producing process; delivery follows it. */
  readonly seq: number;
}

/** Everything one turn changed: written all or nothing. */
export interface TurnCommit {
  readonly actor: ActorRef;
  /** State key to JSON text. */
  readonly upserts: ReadonlyMap<string, string>;
  readonly deletes: ReadonlySet<string>;
  readonly reminderUpserts: readonly StoredReminder[];
  readonly reminderDeletes: readonly string[];
  readonly outbox: readonly OutboxRecord[];
}

/**
 * Durable actor state for the in-process host. `commit` is atomic: state, reminders and outbox
 * entries of a turn land together or not at all (one transaction on SQLite, one document write
 * on MongoDB).
 */
export interface ActorStateStore {
  loadState(actor: ActorRef): Promise<Map<string, string>>;
  commit(change: TurnCommit): Promise<void>;
  loadReminders(): Promise<StoredReminder[]>;
}
