import { MongoServerError, type Collection, type Db } from "mongodb";
import type { SharedCacheEntry, SharedResponseCache } from "../ports/response-cache.js";

interface CacheDoc {
  _id: string;
  body: string;
  expiresAt: number;
}

const DUPLICATE_KEY = 11000;

/** One document per key; the conditional upsert relies on single-document atomicity (DECISIONS 6). */
export class MongoResponseCache implements SharedResponseCache {
  private readonly docs: Collection<CacheDoc>;

  constructor(db: Db) {
    this.docs = db.collection<CacheDoc>("response_cache");
  }

  async ensureIndexes(): Promise<void> {
    await this.docs.createIndex({ expiresAt: 1 });
  }

  async get(key: string): Promise<SharedCacheEntry | null> {
    const doc = await this.docs.findOne({ _id: key });
    return doc === null ? null : { body: doc.body, expiresAt: doc.expiresAt };
  }

  async putIfVacant(key: string, entry: SharedCacheEntry, now: number): Promise<{ entry: SharedCacheEntry; stored: boolean }> {
    try {
      // Matches only an expired entry; with none stored the upsert inserts. A live entry makes
      // the upsert collide on _id: another replica's answer stands, and is returned.
      await this.docs.updateOne({ _id: key, expiresAt: { $lte: now } }, { $set: { body: entry.body, expiresAt: entry.expiresAt } }, { upsert: true });
      return { entry, stored: true };
    } catch (err) {
      if (!(err instanceof MongoServerError && err.code === DUPLICATE_KEY)) throw err;
    }
    const current = await this.get(key);
    return current === null ? { entry, stored: false } : { entry: current, stored: false };
  }

  async sweepExpired(now: number): Promise<number> {
    return (await this.docs.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
  }
}
