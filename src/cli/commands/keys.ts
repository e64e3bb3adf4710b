import { parseArgs } from "node:util";
import { z } from "zod";
import { loadConfig } from "../../config/env.js";
import { openStore } from "../../store/open-store.js";
import { TIERS } from "../../domain/access/tiers.js";
import { hashApiKey, parseApiKey } from "../../domain/access/api-key.js";
import { KeyIssuer } from "../../application/key-issuer.js";
import { wallClock } from "../../runtime/clocks/clock.js";
import type { CliCommand, CliIo } from "../io.js";

const createArgs = z.object({
  tier: z.enum(TIERS),
  name: z.string().min(1).max(100).optional(),
  email: z.email().max(254).optional(),
});

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
          return fail(io, `usage: keys create --tier <free|basic|pro> [--name N] [--email E]\n${why}`);
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
        const key = rest[0];
        if (!key || !parseApiKey(key)) return fail(io, "usage: keys deactivate <api_key>");
        const ok = await store.apiKeys.deactivate(hashApiKey(key), new Date().toISOString());
        io.stdout.write(JSON.stringify({ deactivated: ok }) + "\n");
        return ok ? 0 : 1;
      }
      case "list": {
        const keys = await store.apiKeys.list();
        const rows = keys.map((k) => ({
          id: k.id,
          key_prefix: k.prefix,
          tier: k.tier,
          name: k.name,
          active: k.active,
          created_at: k.createdAt,
          deactivated_at: k.deactivatedAt,
        }));
        io.stdout.write(JSON.stringify(rows) + "\n");
        return 0;
      }
      default:
        return fail(io, "usage: keys <create|deactivate|list>");
    }
  } finally {
    await store.close();
  }
};
