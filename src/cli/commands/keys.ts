import { parseArgs } from "node:util";
import { z } from "zod";
import { loadConfig } from "../../config/env.js";
import { openStore } from "../../store/open-store.js";
import { TIERS } from "../../domain/access/tiers.js";
import { EMAIL_ADDRESS, EMAIL_MAX_LENGTH } from "../../domain/access/email-address.js";
import { hashApiKey, parseApiKey } from "../../domain/access/api-key.js";
import { KeyIssuer } from "../../application/key-issuer.js";
import { wallClock } from "../../runtime/clocks/clock.js";
import type { ApiKeyRepository } from "../../store/ports/api-keys.js";
import type { CliCommand, CliIo } from "../io.js";

const createArgs = z.object({
  tier: z.enum(TIERS),
  name: z.string().min(1).max(100).optional(),
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

function fail(io: CliIo, message: string): number {
  io.stderr.write(`${message}\n`);
  return 2;
}

/** `keys create|deactivate|list` on the store named by STORE_URL (works while the service runs). */
export const keysCommand: CliCommand = async (args, io) => {
  const [sub, ...rest] = args;
  const config = loadConfig();
  const store = await openStore(config.STORE_URL);
  try {
    switch (sub) {
      case "create": {
        const { values } = parseArgs({ args: rest, options: { tier: { type: "string" }, name: { type: "string" }, email: { type: "string" } } });
        const parsed = createArgs.safeParse(values);
        if (!parsed.success) {
          const why = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
          return fail(io, `${CREATE_USAGE}\n${why}`);
        }
        const issued = await new KeyIssuer(store.apiKeys, wallClock).create(parsed.data.tier, parsed.data.name ?? null, parsed.data.email ?? null);
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
      case "deactivate": {
        const { values, positionals } = parseArgs({ args: rest, options: { lineage: { type: "string" } }, allowPositionals: true });
        if (values.lineage !== undefined && positionals.length === 0) {
          // A lineage id is the UUID of its first key (`keys list`); anything else is a typo, not "nothing to revoke".
          if (!z.uuid().safeParse(values.lineage).success) return fail(io, DEACTIVATE_USAGE);
          const revoked = await deactivateLineage(store.apiKeys, values.lineage);
          io.stdout.write(JSON.stringify({ deactivated: revoked.length > 0, lineage: values.lineage, keys: revoked }) + "\n");
          return revoked.length > 0 ? 0 : 1;
        }
        const key = positionals[0];
        if (values.lineage !== undefined || positionals.length !== 1 || !key || !parseApiKey(key)) return fail(io, DEACTIVATE_USAGE);
        const ok = await store.apiKeys.deactivate(hashApiKey(key), new Date().toISOString());
        io.stdout.write(JSON.stringify({ deactivated: ok }) + "\n");
        if (!ok) {
          // Rotated since (by its owner, or by whoever holds it): its successor still works.
          const record = await store.apiKeys.findByHash(hashApiKey(key));
          const successor = record === null ? null : await store.apiKeys.findActiveByUsageId(record.usageId);
          if (record !== null && successor !== null) {
            io.stderr.write(`this key was rotated; its lineage's active key is ${successor.prefix}…: keys deactivate --lineage ${record.usageId}\n`);
          }
        }
        return ok ? 0 : 1;
      }
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
      default:
        return fail(io, keysUsage);
    }
  } finally {
    await store.close();
  }
};
