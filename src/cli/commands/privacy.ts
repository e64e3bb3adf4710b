import { setTimeout as sleep } from "node:timers/promises";
import { eraseAddress } from "../../application/personal-data-erasure.js";
import type { CliCommand } from "../io.js";
import { fail, storedAddress } from "../args.js";
import { withServiceStore } from "../service-store.js";

export const privacyUsage = "usage: privacy erase <email>";

/**
 * `privacy erase <email>`: an erasure request. Removes the address's newsletter subscription and
 * the owner name and address of every API key lineage generated with it; the keys keep working
 * (revoke them with `keys deactivate --lineage`, which the output's lineages name). Takes a few
 * seconds: it looks again after any rotation racing with it could have landed. Exit 1 when the
 * store holds nothing for the address (a typo, another STORE_URL), never a quiet success. Works
 * while the service runs.
 */
export const privacyCommand: CliCommand = async (args, io) => {
  const [sub, email, ...rest] = args;
  const parsed = storedAddress.safeParse(email);
  if (sub !== "erase" || rest.length > 0 || !parsed.success) return fail(io, privacyUsage);
  return withServiceStore(io, async (store) => {
    const erased = await eraseAddress(store, parsed.data, (ms) => sleep(ms));
    io.stdout.write(
      JSON.stringify({ subscriber_removed: erased.subscriberRemoved, key_lineages: erased.lineages, keys_cleared: erased.keysCleared, settled: erased.settled }) + "\n",
    );
    if (!erased.settled) {
      io.stderr.write("rotations kept copying the owner back while erasing; run the command again\n");
      return 1;
    }
    const found = erased.subscriberRemoved || erased.lineages.length > 0;
    if (!found) io.stderr.write("nothing stored for this address in this store (check STORE_URL and the address)\n");
    else if (erased.lineages.length > 0) io.stderr.write("the keys still work, without an owner; to revoke them: keys deactivate --lineage <id>\n");
    return found ? 0 : 1;
  });
};
