import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import { MongoClient } from "mongodb";
import type { StoreKind } from "./service.js";

/** A `WEBHOOK_SECRET_KEYS` / `PERSONAL_DATA_KEYS` entry with fresh key material. */
export const sealKey = (id: string): string => `${id}:${randomBytes(32).toString("base64")}`;

/** Every row of every table or collection of the store, as text: what a dump or backup holds. */
export async function storeDump(kind: StoreKind, storeUrl: string): Promise<string> {
  if (kind === "sqlite") {
    const db = new Database(storeUrl.slice("sqlite:".length), { readonly: true });
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>;
      return tables.map((t) => JSON.stringify(db.prepare(`SELECT * FROM "${t.name}"`).all())).join("\n");
    } finally {
      db.close();
    }
  }
  const client = await MongoClient.connect(storeUrl);
  try {
    const db = client.db();
    const parts: string[] = [];
    for (const c of await db.listCollections().toArray()) parts.push(JSON.stringify(await db.collection(c.name).find().toArray()));
    return parts.join("\n");
  } finally {
    await client.close();
  }
}
