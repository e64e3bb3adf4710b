import { z } from "zod";
import { INTEGRITY_CHECKS, integrityChecks } from "../domain/ghost/ledger-integrity.js";
import { paperTradesValidated } from "../domain/ghost/ghost-stats.js";
import { trackRecordStats } from "../domain/ghost/track-record-stats.js";
import type { OpenPosition } from "../domain/ghost/trade.js";
import { ASSETS } from "../domain/signals/signal-keys.js";
import type { Store } from "../store/store.js";
import { countedUnderSprints, sinceFor } from "./ghost-sprints.js";

/**
 * The operator's TAO sign-off (SPEC "TAO paperMode": 10 validated paper closes plus an explicit
 * sign-off). Kept as one durable key in the actor-state store under a type no actor is registered
 * as, so it needs no new repository and no actor turn ever overwrites it.
 */
const REF = { type: "TaoSignoff", id: "TAO" } as const;
const KEY = "signoff";

const signoffSchema = z.object({
  by: z.string().min(1),
  /** Wall-clock time of the command. */
  recordedAt: z.string(),
  /** Market time it applies from: a later track-record restart voids it. */
  at: z.number(),
  paperTradesValidated: z.number().int(),
  testsPassing: z.number().int(),
});
export type TaoSignoff = z.infer<typeof signoffSchema>;

export async function readTaoSignoff(store: Store): Promise<TaoSignoff | null> {
  const raw = (await store.actorState.loadState(REF)).get(KEY);
  if (raw === undefined) return null;
  const parsed = signoffSchema.safeParse(JSON.parse(raw));
  return parsed.success ? parsed.data : null;
}

export async function saveTaoSignoff(store: Store, signoff: TaoSignoff): Promise<void> {
  await store.actorState.commit({
    actor: REF,
    upserts: new Map([[KEY, JSON.stringify(signoff)]]),
    deletes: new Set(),
    reminderUpserts: [],
    reminderDeletes: [],
    outbox: [],
  });
}

/** A sign-off counts only inside the track-record period it was given in (a restart voids it). */
export function signedOffSince(signoff: TaoSignoff | null, sinceMs: number): boolean {
  return signoff !== null && signoff.at >= sinceMs;
}

export interface SignoffReadiness {
  readonly paperTradesValidated: number;
  readonly testsPassing: number;
  readonly testsTotal: number;
  readonly failing: readonly string[];
  readonly sinceMs: number;
}

/**
 * What the sign-off rests on, as of market time `now`, computed as the routes compute it: TAO's
 * validated closes in the current period (SPEC: 10 required) and the ledger integrity checks
 * behind `tests_passing` (all must hold: a ledger that fails one cannot vouch for the 10).
 */
export async function signoffReadiness(store: Store, now: number): Promise<SignoffReadiness> {
  const ledger = store.ghostLedger;
  const [all, marks, snaps] = await Promise.all([ledger.closed(), ledger.sprints(), ledger.snapshots()]);
  const closed = all.filter((t) => t.exitTime <= now);
  const open = snaps.map((s) => s.position).filter((p): p is OpenPosition => p !== null);
  const counted = countedUnderSprints(closed, marks);
  const storedStats = Object.fromEntries(ASSETS.map((a) => [a, trackRecordStats(counted.filter((t) => t.asset === a))]));
  const checks = integrityChecks({ closed, open, sinceMs: 0, storedStats });
  const sinceMs = sinceFor("TAO", marks);
  return {
    paperTradesValidated: paperTradesValidated(counted.filter((t) => t.asset === "TAO"), sinceMs),
    testsPassing: checks.filter((c) => c.passed).length,
    testsTotal: INTEGRITY_CHECKS.length,
    failing: checks.filter((c) => !c.passed).map((c) => c.name),
    sinceMs,
  };
}

