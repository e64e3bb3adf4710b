import type { Store } from "./store.js";
import { openSqliteStore } from "./sqlite/sqlite-store.js";
import { openMongoStore } from "./mongo/mongo-store.js";

/** `sqlite:<path>`, `sqlite::memory:` or `mongodb://…` (DECISIONS 1). */
export async function openStore(url: string): Promise<Store> {
  if (url.startsWith("sqlite:")) return openSqliteStore(url.slice("sqlite:".length));
  return openMongoStore(url);
}
