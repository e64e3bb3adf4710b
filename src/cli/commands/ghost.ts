import { parseArgs } from "node:util";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { loadConfig } from "../../config/env.js";
import { openStore } from "../../store/open-store.js";
import { ASSETS } from "../../domain/signals/signal-keys.js";
import { currentSprint } from "../../services/ghost-sprints.js";
import type { CliCommand, CliIo } from "../io.js";

const restartArgs = z.object({
  asset: z.enum([...ASSETS, "all"]),
  reason: z.string().trim().min(1).max(500),
});

function fail(io: CliIo, message: string): number {
  io.stderr.write(`${message}\n`);
  return 2;
}

/**
 * `ghost restart --asset <A|all> --reason <text>` (DECISIONS 7): starts a new track-record sprint.
 * "Now" is market time, as trades are stamped: the newest turn any Ghost Trader recorded (in
 * replay the wall clock is months after the replayed market and would hide every later trade),
 * or the wall clock when no trader has run yet. Earlier trades stay stored, no longer counted.
 */
export const ghostCommand: CliCommand = async (args, io) => {
  const [sub, ...rest] = args;
  if (sub !== "restart") return fail(io, "usage: ghost restart --asset <BTC|ETH|SOL|TAO|all> --reason <text>");
  const { values } = parseArgs({ args: rest, options: { asset: { type: "string" }, reason: { type: "string" } } });
  const parsed = restartArgs.safeParse({ ...values, asset: values.asset === "all" ? "all" : values.asset?.toUpperCase() });
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    return fail(io, `usage: ghost restart --asset <BTC|ETH|SOL|TAO|all> --reason <text>\n${why}`);
  }
  const store = await openStore(loadConfig().STORE_URL);
  try {
    const ledger = store.ghostLedger;
    const snaps = await ledger.snapshots();
    const at = snaps.length === 0 ? Date.now() : Math.max(...snaps.map((s) => s.at));
    const scope = parsed.data.asset === "all" ? "ALL" : parsed.data.asset;
    await ledger.addSprint({ id: randomUUID(), scope, at, reason: parsed.data.reason, recordedAt: new Date().toISOString() });
    const { sprint } = currentSprint(await ledger.sprints());
    io.stdout.write(JSON.stringify({ restarted: scope, since: new Date(at).toISOString(), sprint, reason: parsed.data.reason }) + "\n");
    return 0;
  } finally {
    await store.close();
  }
};
