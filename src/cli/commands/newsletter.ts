import { z } from "zod";
import { loadConfig } from "../../config/env.js";
import { openStore } from "../../store/open-store.js";
import { EMAIL_MAX_LENGTH } from "../../domain/access/email-address.js";
import type { CliCommand } from "../io.js";
import { fail } from "../args.js";
import { personalDataStore } from "../../composition/personal-data.js";
import { createLogger } from "../../logging/logger.js";

export const newsletterUsage = "usage: newsletter remove <email>";

/** The address as the subscribe route stores it: trimmed, lower case. */
const storedForm = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.string().min(3).max(EMAIL_MAX_LENGTH).includes("@"));

/**
 * `newsletter remove <email>`: forgets a subscriber, for an erasure request or an unsubscribe
 * asked for by mail (the welcome's own link, /unsubscribe, needs nobody). Exit 1 when the store has
 * no such address (a typo, another STORE_URL), never a quiet success. Works while the service runs.
 */
export const newsletterCommand: CliCommand = async (args, io) => {
  const [sub, email, ...rest] = args;
  const parsed = storedForm.safeParse(email);
  if (sub !== "remove" || rest.length > 0 || !parsed.success) return fail(io, newsletterUsage);
  const config = loadConfig();
  // The service's own view: with PERSONAL_DATA_KEYS set, rows are found by the address's blind index.
  const store = personalDataStore(await openStore(config.STORE_URL), config, createLogger(config.LOG_LEVEL, {}, io.stderr)).store;
  try {
    const removed = await store.newsletter.remove(parsed.data);
    io.stdout.write(JSON.stringify({ removed }) + "\n");
    if (!removed) io.stderr.write("no such subscriber in this store (check STORE_URL and the address)\n");
    return removed ? 0 : 1;
  } finally {
    await store.close();
  }
};
