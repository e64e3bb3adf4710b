import { parseArgs } from "node:util";
import { z } from "zod";
import { TIERS } from "../../domain/access/tiers.js";
import { EMAIL_ADDRESS, EMAIL_MAX_LENGTH } from "../../domain/access/email-address.js";
import { hashApiKey, parseApiKey } from "../../domain/access/api-key.js";
import { KeyIssuer } from "../../application/key-issuer.js";
import { wallClock } from "../../runtime/clocks/clock.js";
import type { ApiKeyRepository } from "../../store/ports/api-keys.js";
import type { CliCommand, CliIo } from "../io.js";
import { fail, printableText, refused } from "../args.js";
import { withServiceStore } from "../service-store.js";

const createArgs = z.object({
  tier: z.enum(TIERS),
  name: printableText(100).optional(),
  email: z.email({ pattern: EMAIL_ADDRESS }).max(EMAIL_MAX_LENGTH).optional(),
});

const CREATE_USAGE = "usage: keys create --tier <free|basic|pro> [--name N] [--email E]";
const DEACTIVATE_USAGE = "usage: keys deactivate <api_key> | keys deactivate --lineage <lineage id from keys list>";
export const keysUsage = [CREATE_USAGE, DEACTIVATE_USAGE.replace("usage: ", "       "), "       keys list"].join("\n");

/** A rotation can race with the revocation; a lineage holds at most one active key at a time. */
const MAX_LINEAGE_ROUNDS = 10;

/**
 * Deactivates the active key of a lineage (a key and its rotations), again if a rotation racing
 * with it created a successor meanwhile, so whoever holds any key of the lineage is cut off.
 * Returns the prefixes of the keys it deactivated.
 */
async function deactivateLineage(keys: ApiKeyRepository, lineage: string): Promise<string[]> {
  const revoked: string[] = [];
  for (let round = 0; round < MAX_LINEAGE_ROUNDS; round++) {
    const active = await keys.findActiveByUsageId(lineage);
    if (active === null) break;
    if (await keys.deactivate(active.hash, new Date().toISOString())) revoked.push(active.prefix);
  }
  return revoked;
}

/**
 * One key. Retrying is safe: a key already deactivated answers `already` with exit 0. A key the
 * store does not know (a typo) is exit 1 and says so, not a quiet "nothing deactivated"; a key
 * rotated since names its lineage's active successor (exit 1: that one still works).
 */
async function deactivateKey(keys: ApiKeyRepository, key: string, io: CliIo): Promise<number> {
  const hash = hashApiKey(key);
  const record = await keys.findByHash(hash);
  if (record === null) {
    io.stdout.write(JSON.stringify({ deactivated: false, known: false }) + "\n");
    io.stderr.write("no such key in this store (check STORE_URL and the key)\n");
    return 1;
  }
  if (await keys.deactivate(hash, new Date().toISOString())) {
    io.stdout.write(JSON.stringify({ deactivated: true }) + "\n");
    return 0;
  }
  const successor = await keys.findActiveByUsageId(record.usageId);
  if (successor !== null) {
    io.stdout.write(JSON.stringify({ deactivated: false }) + "\n");
    io.stderr.write(`this key was rotated; its lineage's active key is ${successor.prefix}…: keys deactivate --lineage ${record.usageId}\n`);
    return 1;
  }
  io.stdout.write(JSON.stringify({ deactivated: false, already: true, deactivated_at: record.deactivatedAt }) + "\n");
  return 0;
}

/** What a `keys` command does, parsed and checked before any store is opened (or created). */
type KeysPlan =
  | { readonly kind: "create"; readonly args: z.infer<typeof createArgs> }
  | { readonly kind: "deactivate-key"; readonly key: string }
  | { readonly kind: "deactivate-lineage"; readonly lineage: string }
  | { readonly kind: "list" };

function plan(args: string[], io: CliIo): KeysPlan | number {
  const [sub, ...rest] = args;
  switch (sub) {
    case "create": {
      const { values } = parseArgs({ args: rest, options: { tier: { type: "string" }, name: { type: "string" }, email: { type: "string" } } });
      const parsed = createArgs.safeParse(values);
      return parsed.success ? { kind: "create", args: parsed.data } : refused(io, CREATE_USAGE, parsed.error);
    }
    case "deactivate": {
      const { values, positionals } = parseArgs({ args: rest, options: { lineage: { type: "string" } }, allowPositionals: true });
      if (values.lineage !== undefined && positionals.length === 0) {
        // A lineage id is the UUID of its first key (`keys list`); anything else is a typo, not "nothing to revoke".
        return z.uuid().safeParse(values.lineage).success ? { kind: "deactivate-lineage", lineage: values.lineage } : fail(io, DEACTIVATE_USAGE);
      }
      const key = positionals[0];
      if (values.lineage !== undefined || positionals.length !== 1 || !key || !parseApiKey(key)) return fail(io, DEACTIVATE_USAGE);
      return { kind: "deactivate-key", key };
    }
    case "list":
      return rest.length === 0 ? { kind: "list" } : fail(io, keysUsage);
    default:
      return fail(io, keysUsage);
  }
}

/** `keys create|deactivate|list` on the store named by STORE_URL (works while the service runs). */
export const keysCommand: CliCommand = async (args, io) => {
  const planned = plan(args, io);
  if (typeof planned === "number") return planned;
  return withServiceStore(io, async (store) => {
    switch (planned.kind) {
      case "create": {
        const { tier, name, email } = planned.args;
        const issued = await new KeyIssuer(store.apiKeys, wallClock).create(tier, name ?? null, email ?? null);
        io.stdout.write(
          JSON.stringify({
            api_key: issued.apiKey,
            key_prefix: issued.record.prefix,
            tier: issued.record.tier,
            name: issued.record.name,
            email: issued.record.email,
            created_at: issued.record.createdAt,
          }) + "\n",
        );
        return 0;
      }
      case "deactivate-lineage": {
        const revoked = await deactivateLineage(store.apiKeys, planned.lineage);
        if (revoked.length > 0) {
          io.stdout.write(JSON.stringify({ deactivated: true, lineage: planned.lineage, keys: revoked }) + "\n");
          return 0;
        }
        // Nothing active: revoked before (a retry, exit 0), or no such lineage here (exit 1).
        const known = (await store.apiKeys.findById(planned.lineage)) !== null;
        io.stdout.write(JSON.stringify({ deactivated: false, lineage: planned.lineage, keys: [], ...(known ? { already: true } : { known: false }) }) + "\n");
        if (!known) io.stderr.write("no such lineage in this store (check STORE_URL and the id from keys list)\n");
        return known ? 0 : 1;
      }
      case "deactivate-key":
        return deactivateKey(store.apiKeys, planned.key, io);
      case "list": {
        const keys = await store.apiKeys.list();
        const rows = keys.map((k) => ({
          id: k.id,
          key_prefix: k.prefix,
          tier: k.tier,
          name: k.name,
          lineage: k.usageId,
          active: k.active,
          created_at: k.createdAt,
          deactivated_at: k.deactivatedAt,
        }));
        io.stdout.write(JSON.stringify(rows) + "\n");
        return 0;
      }
    }
  });
};
