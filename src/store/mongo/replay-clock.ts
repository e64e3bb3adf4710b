import { MongoServerError, type Collection, type Db } from "mongodb";
import type { ReplayAnchor, ReplayClockRepository } from "../ports/replay-clock.js";

interface AnchorDoc extends ReplayAnchor {
  _id: "replay";
}

const DUPLICATE_KEY = 11000;
const ID = "replay" as const;

const anchorOf = (d: AnchorDoc): ReplayAnchor => ({ wallAt: d.wallAt, marketAt: d.marketAt, speed: d.speed, epoch: d.epoch, heartbeatAt: d.heartbeatAt });

/** One document; claims rely on single-document atomicity (DECISIONS 6). */
export class MongoReplayClock implements ReplayClockRepository {
  private readonly docs: Collection<AnchorDoc>;

  constructor(db: Db) {
    this.docs = db.collection<AnchorDoc>("replay_clock");
  }

  async ensureIndexes(): Promise<void> {
    // Read by _id only.
  }

  async current(): Promise<ReplayAnchor | null> {
    const doc = await this.docs.findOne({ _id: ID });
    return doc === null ? null : anchorOf(doc);
  }

  async claim(candidate: ReplayAnchor, staleBefore: number): Promise<ReplayAnchor> {
    // Replaces only a stale anchor; with none stored the upsert inserts. A fresh stored anchor
    // makes the upsert collide on _id (another replica's claim won): it stays, and is returned.
    try {
      await this.docs.updateOne({ _id: ID, heartbeatAt: { $lt: staleBefore } }, { $set: { ...candidate } }, { upsert: true });
    } catch (err) {
      if (!(err instanceof MongoServerError && err.code === DUPLICATE_KEY)) throw err;
    }
    const stored = await this.current();
    if (stored === null) throw new Error("the replay clock anchor vanished while it was claimed");
    return stored;
  }

  async release(running: ReplayAnchor): Promise<boolean> {
    const { epoch, wallAt, marketAt, speed, heartbeatAt } = running;
    const result = await this.docs.updateOne({ _id: ID, epoch }, { $set: { wallAt, marketAt, speed, heartbeatAt } });
    return result.matchedCount === 1;
  }

  async beat(epoch: string, at: number): Promise<void> {
    await this.docs.updateOne({ _id: ID, epoch, heartbeatAt: { $lt: at } }, { $set: { heartbeatAt: at } });
  }

  async holdAt(epoch: string, at: number, marketAt: number): Promise<void> {
    await this.docs.updateOne({ _id: ID, epoch, speed: 0 }, { $max: { heartbeatAt: at, marketAt } });
  }
}
