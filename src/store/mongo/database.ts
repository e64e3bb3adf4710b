import { MongoClient, type Db } from "mongodb";

export interface MongoHandle {
  readonly client: MongoClient;
  readonly db: Db;
}

/**
 * Connects to MongoDB (or a MongoDB-wire server such as FerretDB). The database name comes from
 * the URL path, defaulting to "market_intel".
 */
export async function openMongo(url: string): Promise<MongoHandle> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000, maxPoolSize: 20 });
  await client.connect();
  const name = new URL(url).pathname.replace(/^\//, "") || "market_intel";
  return { client, db: client.db(name) };
}

/** True for the duplicate-key error an upsert race produces. */
export function isDuplicateKeyError(err: unknown): boolean {
  return typeof err === "object" && err !== null && "code" in err && (err as { code: unknown }).code === 11000;
}
