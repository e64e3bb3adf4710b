import { loadConfig } from "../config/env.js";
import { openStore } from "../store/open-store.js";
import type { Store } from "../store/store.js";
import { personalDataStore } from "../composition/personal-data.js";
import { createLogger } from "../logging/logger.js";
import type { CliIo } from "./io.js";

/**
 * Runs `work` on the store named by STORE_URL as the service sees it (with PERSONAL_DATA_KEYS
 * set, owner fields and subscribers sealed and opened, found by their blind index), so the CLI
 * reads what the service wrote; closes it afterwards. Logs go to stderr.
 */
export async function withServiceStore<T>(io: CliIo, work: (store: Store) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const store = personalDataStore(await openStore(config.STORE_URL), config, createLogger(config.LOG_LEVEL, {}, io.stderr)).store;
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
