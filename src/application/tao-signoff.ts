import { z } from "zod";
import { INTEGRITY_CHECKS, passedCount } from "../domain/ghost/ledger-integrity.js";
import { paperTradesValidated } from "../domain/ghost/ghost-stats.js";
import type { Store } from "../store/store.js";
import { readCheckedLedger } from "./ledger-snapshot.js";
import { periodMarkFor } from "../domain/ghost/sprints.js";

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
  /** The mark of the track-record period it was given in; absent on sign-offs stored before it. */
  periodMarkId: z.string().optional(),
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

/**
 * A sign-off counts only inside the track-record period it was given in (a restart voids it): the
 * period is named by its mark, so a restart at the very market instant of the sign-off (a replay
 * clock stopped at the end of its data) still voids it. Older sign-offs compare market times.
 */
export function signedOffInPeriod(signoff: TaoSignoff | null, period: { readonly sinceMs: number; readonly markId: string | null }): boolean {
  if (signoff === null) return false;
  if (signoff.periodMarkId !== undefined) return signoff.periodMarkId === period.markId;
  return signoff.at >= period.sinceMs;
}

export interface SignoffReadiness {
  readonly paperTradesValidated: number;
  readonly testsPassing: number;
  readonly testsTotal: number;
  readonly failing: readonly string[];
  readonly sinceMs: number;
  /** The mark that opened TAO's current period (null before the launch mark exists). */
  readonly periodMarkId: string | null;
}

/**
 * What the sign-off rests on, as of market time `now`, computed as the routes compute it: TAO's
 * validated closes in the current period (SPEC: 10 required) and the ledger integrity checks
 * behind `tests_passing` (all must hold: a ledger that fails one cannot vouch for the 10).
 */
export async function signoffReadiness(store: Store, now: number): Promise<SignoffReadiness> {
  const { snapshot, checks } = await readCheckedLedger(store.ghostLedger, now);
  const sinceMs = snapshot.cutoffs.TAO;
  return {
    paperTradesValidated: paperTradesValidated(snapshot.published.TAO ?? [], sinceMs),
    testsPassing: passedCount(checks),
    testsTotal: INTEGRITY_CHECKS.length,
    failing: checks.filter((c) => !c.passed).map((c) => c.name),
    sinceMs,
    periodMarkId: periodMarkFor("TAO", await store.ghostLedger.sprints())?.id ?? null,
  };
}

