import type { SqliteDb } from "./database.js";
import type { SqliteMigration } from "./migrate.js";
import { reminderClockOf, type ActorRef, type ActorStateStore, type StoredReminder, type TurnCommit } from "../ports/actor-state.js";

export const actorRuntimeMigrations: readonly SqliteMigration[] = [
  {
    component: "actors",
    version: 1,
    up: `
      CREATE TABLE actor_state (
        actor_type TEXT NOT NULL, actor_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
        PRIMARY KEY (actor_type, actor_id, key)) WITHOUT ROWID;
      CREATE TABLE actor_reminders (
        actor_type TEXT NOT NULL, actor_id TEXT NOT NULL, name TEXT NOT NULL,
        due_at INTEGER NOT NULL, period_ms INTEGER, payload TEXT NOT NULL,
        PRIMARY KEY (actor_type, actor_id, name)) WITHOUT ROWID;
      CREATE TABLE actor_outbox (
        id TEXT PRIMARY KEY, seq INTEGER NOT NULL, topic TEXT NOT NULL, envelope TEXT NOT NULL,
        actor_type TEXT NOT NULL, actor_id TEXT NOT NULL);
      CREATE INDEX actor_outbox_seq ON actor_outbox (seq);`,
  },
  {
    // Reminders name their clock (issue 17 item 4); the ones stored before ran on market time.
    component: "actors",
    version: 2,
    up: `ALTER TABLE actor_reminders ADD COLUMN clock TEXT NOT NULL DEFAULT 'market';`,
  },
];

interface StateRow {
  key: string;
  value: string;
}

interface ReminderRow {
  actor_type: string;
  actor_id: string;
  name: string;
  clock: string;
  due_at: number;
  period_ms: number | null;
  payload: string;
}

export class SqliteActorStateStore implements ActorStateStore {
  private readonly selectState;
  private readonly upsertState;
  private readonly deleteState;
  private readonly upsertReminder;
  private readonly deleteReminder;
  private readonly selectReminders;
  private readonly insertOutbox;
  private readonly writeTurn;

  constructor(db: SqliteDb) {
    this.selectState = db.prepare<[string, string], StateRow>(
      "SELECT key, value FROM actor_state WHERE actor_type = ? AND actor_id = ?",
    );
    this.upsertState = db.prepare(
      `INSERT INTO actor_state (actor_type, actor_id, key, value) VALUES (?, ?, ?, ?)
       ON CONFLICT (actor_type, actor_id, key) DO UPDATE SET value = excluded.value`,
    );
    this.deleteState = db.prepare("DELETE FROM actor_state WHERE actor_type = ? AND actor_id = ? AND key = ?");
    this.upsertReminder = db.prepare(
      `INSERT INTO actor_reminders (actor_type, actor_id, name, clock, due_at, period_ms, payload) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (actor_type, actor_id, name) DO UPDATE SET
         clock = excluded.clock, due_at = excluded.due_at, period_ms = excluded.period_ms, payload = excluded.payload`,
    );
    this.deleteReminder = db.prepare("DELETE FROM actor_reminders WHERE actor_type = ? AND actor_id = ? AND name = ?");
    this.selectReminders = db.prepare<[], ReminderRow>("SELECT * FROM actor_reminders");
    this.insertOutbox = db.prepare(
      "INSERT INTO actor_outbox (id, seq, topic, envelope, actor_type, actor_id) VALUES (?, ?, ?, ?, ?, ?)",
    );
    this.writeTurn = db.transaction((c: TurnCommit) => {
      const { type, id } = c.actor;
      for (const [key, value] of c.upserts) this.upsertState.run(type, id, key, value);
      for (const key of c.deletes) this.deleteState.run(type, id, key);
      for (const r of c.reminderUpserts) this.upsertReminder.run(type, id, r.name, r.clock, r.dueAt, r.periodMs, r.payload);
      for (const name of c.reminderDeletes) this.deleteReminder.run(type, id, name);
      for (const o of c.outbox) this.insertOutbox.run(o.id, o.seq, o.topic, o.envelope, type, id);
    });
  }

  loadState(actor: ActorRef): Promise<Map<string, string>> {
    const rows = this.selectState.all(actor.type, actor.id);
    return Promise.resolve(new Map(rows.map((r) => [r.key, r.value])));
  }

  commit(change: TurnCommit): Promise<void> {
    // IMMEDIATE: a second process on the file waits on busy_timeout instead of failing mid-turn.
    this.writeTurn.immediate(change);
    return Promise.resolve();
  }

  loadReminders(): Promise<StoredReminder[]> {
    return Promise.resolve(
      this.selectReminders.all().map((r) => ({
        actorType: r.actor_type,
        actorId: r.actor_id,
        name: r.name,
        clock: reminderClockOf(r.clock),
        dueAt: r.due_at,
        periodMs: r.period_ms,
        payload: r.payload,
      })),
    );
  }
}
