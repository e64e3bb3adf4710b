import { parseArgs } from "node:util";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { loadConfig } from "../../config/env.js";
import { openStore } from "../../store/open-store.js";
import { ASSETS } from "../../domain/signals/signal-keys.js";
import { currentSprint } from "../../domain/ghost/sprints.js";
import { PAPER_VALIDATION_TARGET } from "../../domain/ghost/ghost-stats.js";
import { readTaoSignoff, saveTaoSignoff, signedOffInPeriod, signoffReadiness } from "../../application/tao-signoff.js";
import type { Store } from "../../store/store.js";
import type { CliCommand, CliIo } from "../io.js";
import { fail, printableText, refused } from "../args.js";

export const ghostUsage = "usage: ghost restart --asset <BTC|ETH|SOL|TAO|all> --reason <text>\n       ghost signoff --asset TAO --by <name>";

const signoffArgs = z.object({
  asset: z.literal("TAO", { error: "only TAO has a paper mode to sign off" }),
  by: printableText(100),
});

const restartArgs = z.object({
  asset: z.enum([...ASSETS, "all"]),
  reason: printableText(500),
});

/**
 * Market "now" for operator commands: the newest turn any Ghost Trader recorded. In live mode
 * before any trader ran, the wall clock. In replay mode the wall clock is months after the
 * replayed market and would hide every later trade, so without a trader turn there is no "now"
 * to mark: null.
 */
async function marketNow(store: Store, feed: "replay" | "live"): Promise<number | null> {
  // A status that does not read back is left out: the others still say how far the market ran.
  const snaps = (await store.ghostLedger.snapshotsChecked()).snapshots;
  if (snaps.length > 0) return Math.max(...snaps.map((s) => s.at));
  return feed === "live" ? Date.now() : null;
}

const NO_MARKET_TIME =
  "no Ghost Trader has run on this store yet, so there is no replay market time to mark; start the service (its warm-up runs the traders) and run this again";

/**
 * `ghost signoff --asset TAO --by <name>` (SPEC "TAO paperMode"): paper mode ends only with 10
 * validated paper closes in the current period AND this explicit sign-off. The command refuses
 * (exit 1, nothing stored) unless the 10 closes exist and every ledger integrity check behind
 * `tests_passing` holds, so a sign-off never vouches for a ledger that does not add up. The
 * sign-off is stored with the market time it was given; a later `ghost restart` voids it.
 */
async function signoff(rest: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: rest, options: { asset: { type: "string" }, by: { type: "string" } } });
  const parsed = signoffArgs.safeParse({ ...values, asset: values.asset?.toUpperCase() });
  if (!parsed.success) return refused(io, ghostUsage, parsed.error);
  const config = loadConfig();
  const store = await openStore(config.STORE_URL);
  try {
    const at = await marketNow(store, config.MARKET_FEED);
    if (at === null) {
      io.stderr.write(`TAO sign-off refused: ${NO_MARKET_TIME}\n`);
      return 1;
    }
    const ready = await signoffReadiness(store, at);
    const previous = await readTaoSignoff(store);
    if (signedOffInPeriod(previous, { sinceMs: ready.sinceMs, markId: ready.periodMarkId })) {
      io.stdout.write(JSON.stringify({ signedOff: "TAO", by: previous?.by, at: previous?.recordedAt, paperMode: false, already: true }) + "\n");
      return 0;
    }
    const reasons: string[] = [];
    if (ready.paperTradesValidated < PAPER_VALIDATION_TARGET) {
      reasons.push(`only ${ready.paperTradesValidated} of ${PAPER_VALIDATION_TARGET} validated TAO paper trades have closed`);
    }
    if (ready.testsPassing < ready.testsTotal) {
      reasons.push(`ledger integrity: ${ready.testsPassing} of ${ready.testsTotal} checks pass (failing: ${ready.failing.join("; ")})`);
    }
    if (reasons.length > 0) {
      io.stderr.write(`TAO sign-off refused; paper mode stays on:\n${reasons.map((r) => `  - ${r}`).join("\n")}\n`);
      return 1;
    }
    const recordedAt = new Date().toISOString();
    await saveTaoSignoff(store, {
      by: parsed.data.by,
      recordedAt,
      at,
      ...(ready.periodMarkId === null ? {} : { periodMarkId: ready.periodMarkId }),
      paperTradesValidated: ready.paperTradesValidated,
      testsPassing: ready.testsPassing,
    });
    io.stdout.write(
      JSON.stringify({ signedOff: "TAO", by: parsed.data.by, at: recordedAt, paperTradesValidated: ready.paperTradesValidated, tests_passing: ready.testsPassing, paperMode: false }) + "\n",
    );
    return 0;
  } finally {
    await store.close();
  }
}

/**
 * `ghost restart --asset <A|all> --reason <text>` (DECISIONS 7): starts a new track-record sprint.
 * "Now" is market time, as trades are stamped (marketNow). Earlier trades stay stored, no longer
 * counted.
 */
export const ghostCommand: CliCommand = async (args, io) => {
  const [sub, ...rest] = args;
  if (sub === "signoff") return signoff(rest, io);
  if (sub !== "restart") return fail(io, ghostUsage);
  const { values } = parseArgs({ args: rest, options: { asset: { type: "string" }, reason: { type: "string" } } });
  const parsed = restartArgs.safeParse({ ...values, asset: values.asset === "all" ? "all" : values.asset?.toUpperCase() });
  if (!parsed.success) return refused(io, ghostUsage, parsed.error);
  const config = loadConfig();
  const store = await openStore(config.STORE_URL);
  try {
    const ledger = store.ghostLedger;
    const at = await marketNow(store, config.MARKET_FEED);
    if (at === null) {
      io.stderr.write(`ghost restart refused: ${NO_MARKET_TIME}\n`);
      return 1;
    }
    const scope = parsed.data.asset === "all" ? "ALL" : parsed.data.asset;
    const marks = await ledger.sprints();
    // A retry (the answer was lost) while market time has not moved: the same restart, already
    // made, even when another asset's restart came in between. A second mark at the same instant
    // would only raise the published sprint number.
    const made = marks.find((m) => m.scope === scope && m.at === at);
    if (made !== undefined) {
      // The sprint it opened, not the newest: another asset's restart since has a higher number.
      const { sprint } = currentSprint(marks.slice(0, marks.indexOf(made) + 1));
      io.stdout.write(JSON.stringify({ restarted: scope, since: new Date(at).toISOString(), sprint, reason: made.reason, already: true }) + "\n");
      return 0;
    }
    await ledger.addSprint({ id: randomUUID(), scope, at, reason: parsed.data.reason, recordedAt: new Date().toISOString() });
    const { sprint } = currentSprint(await ledger.sprints());
    io.stdout.write(JSON.stringify({ restarted: scope, since: new Date(at).toISOString(), sprint, reason: parsed.data.reason }) + "\n");
    return 0;
  } finally {
    await store.close();
  }
};
