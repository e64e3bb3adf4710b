import type { Store } from "../store.js";
import { openMongo } from "./database.js";
import { MongoApiKeys, MongoCounters, MongoNewsletter, MongoSlidingWindows } from "./access.js";

export async function openMongoStore(url: string): Promise<Store> {
  const { client, db } = await openMongo(url);
  const repos = {
    apiKeys: new MongoApiKeys(db),
    counters: new MongoCounters(db),
    slidingWindows: new MongoSlidingWindows(db),
    newsletter: new MongoNewsletter(db),
  };
  for (const repo of Object.values(repos)) await repo.ensureIndexes();
  return {
    kind: "mongodb",
    ...repos,
    async ping() {
      await db.command({ ping: 1 });
    },
    async close() {
      await client.close();
    },
  };
}
