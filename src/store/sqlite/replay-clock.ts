import type { SqliteDb } from "./database.js";
import type { SqliteMigration } from "./migrate.js";
import type { ReplayAnchor, ReplayClockRepository } from "../ports/replay-clock.js";

export const replayClockMigrations: readonly SqliteMigration[] = [
  {
    component: "replay-clock",
    version: 1,
    up: `CREATE TABLE replay_clock (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      wall_at INTEGER NOT NULL,
      market_at INTEGER NOT NULL,
      speed REAL NOT NULL,
      epoch TEXT NOT NULL,
      heartbeat_at INTEGER NOT NULL
    );`,
  },
];

interface Row {
  wall_at: number;
  market_at: number;
  speed: number;
  epoch: string;
  heartbeat_at: number;
}

const anchorOf = (r: Row): ReplayAnchor => ({ wallAt: r.wall_at, marketAt: r.market_at, speed: r.speed, epoch: r.epoch, heartbeatAt: r.heartbeat_at });

export class SqliteReplayClock implements ReplayClockRepository {
  private readonly read;
  private readonly write;
  private readonly touch;
  private readonly touchHeld;
  private readonly setRunning;
  private readonly claimTx;

  constructor(db: SqliteDb) {
    this.read = db.prepare<[], Row>("SELECT wall_at, market_at, speed, epoch, heartbeat_at FROM replay_clock WHERE id = 1");
    this.write = db.prepare(
      "INSERT INTO replay_clock (id, wall_at, market_at, speed, epoch, heartbeat_at) VALUES (1, @wallAt, @marketAt, @speed, @epoch, @heartbeatAt) ON CONFLICT (id) DO UPDATE SET wall_at = excluded.wall_at, market_at = excluded.market_at, speed = excluded.speed, epoch = excluded.epoch, heartbeat_at = excluded.heartbeat_at",
    );
    this.setRunning = db.prepare(
      "UPDATE replay_clock SET wall_at = @wallAt, market_at = @marketAt, speed = @speed, heartbeat_at = @heartbeatAt WHERE id = 1 AND epoch = @epoch",
    );
    this.touch = db.prepare("UPDATE replay_clock SET heartbeat_at = MAX(heartbeat_at, ?) WHERE id = 1 AND epoch = ?");
    this.touchHeld = db.prepare(
      "UPDATE replay_clock SET heartbeat_at = MAX(heartbeat_at, @at), market_at = MAX(market_at, @marketAt) WHERE id = 1 AND epoch = @epoch AND speed = 0",
    );
    // IMMEDIATE: two processes claiming at once serialise on the write lock, so one anchor wins.
    this.claimTx = db.transaction((candidate: ReplayAnchor, staleBefore: number): ReplayAnchor => {
      const row = this.read.get();
      if (row !== undefined && row.heartbeat_at >= staleBefore) return anchorOf(row);
      this.write.run(candidate);
      return candidate;
    });
  }

  async current(): Promise<ReplayAnchor | null> {
    const row = this.read.get();
    return row === undefined ? null : anchorOf(row);
  }

  async claim(candidate: ReplayAnchor, staleBefore: number): Promise<ReplayAnchor> {
    return this.claimTx.immediate(candidate, staleBefore);
  }

  async release(running: ReplayAnchor): Promise<boolean> {
    return this.setRunning.run(running).changes === 1;
  }

  async beat(epoch: string, at: number): Promise<void> {
    this.touch.run(at, epoch);
  }

  async holdAt(epoch: string, at: number, marketAt: number): Promise<void> {
    this.touchHeld.run({ epoch, at, marketAt });
  }
}
