import type { CliCommand } from "../io.js";
import { fail, storedAddress } from "../args.js";
import { withServiceStore } from "../service-store.js";

export const newsletterUsage = "usage: newsletter remove <email>";

/**
 * `newsletter remove <email>`: forgets a subscriber, for an unsubscribe asked for by mail (the
 * welcome's own link, /unsubscribe, needs nobody; an erasure request is `privacy erase`). Exit 1
 * when the store has no such address (a typo, another STORE_URL), never a quiet success. Works
 * while the service runs.
 */
export const newsletterCommand: CliCommand = async (args, io) => {
  const [sub, email, ...rest] = args;
  const parsed = storedAddress.safeParse(email);
  if (sub !== "remove" || rest.length > 0 || !parsed.success) return fail(io, newsletterUsage);
  return withServiceStore(io, async (store) => {
    const removed = await store.newsletter.remove(parsed.data);
    io.stdout.write(JSON.stringify({ removed }) + "\n");
    if (!removed) io.stderr.write("no such subscriber in this store (check STORE_URL and the address)\n");
    return removed ? 0 : 1;
  });
};
