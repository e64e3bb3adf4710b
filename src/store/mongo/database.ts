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
  return { client, db: client.db(databaseName(url)) };
}

/**
 * The path of a connection string. Not through `new URL`: a replica set's seed list
 * (`mongodb://h1:27017,h2:27017/db`) is not a URL to it, so a production URL stopped the start
 * with a stack trace quoting the password. Credentials cannot hold a raw "/" (they are
 * percent-encoded), so the path starts at the first "/" after the scheme.
 */
export function databaseName(url: string): string {
  const path = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]*)/.exec(url)?.[1] ?? "";
  return decodeURIComponent(path) || "market_intel";
}

/** True for the duplicate-key error an upsert race produces. */
export function isDuplicateKeyError(err: unknown): boolean {
  return typeof err === "object" && err !== null && "code" in err && (err as { code: unknown }).code === 11000;
}
