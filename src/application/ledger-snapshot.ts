import { integrityChecks, type IntegrityCheck, type LedgerSnapshot } from "../domain/ghost/ledger-integrity.js";
import type { OpenPosition } from "../domain/ghost/trade.js";
import { ASSETS, type Asset } from "../domain/signals/signal-keys.js";
import type { GhostLedgerRepository } from "../store/ports/ghost-ledger.js";
import { countedUnderSprints, sinceFor, type SprintMark } from "../domain/ghost/sprints.js";

/**
 * The ledger as of market time `now`, read the way the routes read it, for the integrity checks
 * behind `tests_passing` and the TAO sign-off: the whole ledger, the open positions of the status
 * snapshots, each asset's own cutoff, and what each asset's track record publishes (its own
 * per-asset read, counted under its own cutoff).
 */
export async function readLedgerSnapshot(ledger: GhostLedgerRepository, now: number): Promise<LedgerSnapshot> {
  return (await readLedger(ledger, now)).snapshot;
}

/** One read of the ledger: the snapshot, and the sprint marks its cutoffs came from. */
async function readLedger(ledger: GhostLedgerRepository, now: number): Promise<{ snapshot: LedgerSnapshot; marks: SprintMark[] }> {
  const [all, marks, snaps, ...perAsset] = await Promise.all([
    ledger.closedChecked(),
    ledger.sprints(),
    ledger.snapshotsChecked(),
    ...ASSETS.map((a) => ledger.closedChecked(a)),
  ]);
  const cutoffs = Object.fromEntries(ASSETS.map((a) => [a, sinceFor(a, marks)])) as Record<Asset, number>;
  const published = Object.fromEntries(
    ASSETS.map((a, i) => [a, countedUnderSprints((perAsset[i]?.trades ?? []).filter((t) => t.exitTime <= now), marks)]),
  ) as Record<Asset, ReturnType<typeof countedUnderSprints>>;
  const snapshot = {
    closed: all.trades.filter((t) => t.exitTime <= now),
    unreadable: all.unreadable + snaps.unreadable.length,
    open: snaps.snapshots.map((s) => s.position).filter((p): p is OpenPosition => p !== null),
    cutoffs,
    published,
  };
  return { snapshot, marks };
}

/**
 * A read with its checks, and the sprint marks of that same read: a caller publishing `since`
 * or the sprint number beside the figures takes them from here, not from a read of its own
 * that a `ghost restart` could land between.
 */
export interface CheckedLedger {
  readonly snapshot: LedgerSnapshot;
  readonly checks: IntegrityCheck[];
  readonly marks: SprintMark[];
}

/** Reads a failed check gets before it is published: a read artefact clears on the next read. */
const READS_BEFORE_FAILING = 3;

/**
 * The ledger snapshot with its integrity checks, as `tests_passing` and the TAO sign-off publish
 * them. This read is several queries, and on MongoDB a trader step writes its status and its
 * closed trades as two documents (no multi-document transactions: ports/ghost-ledger.ts), so a
 * step landing between the queries can show one position both open and closed: two checks fail
 * on rows that are sound. A fault in the stored rows fails every read, so a check is published
 * as failing only when it fails on consecutive reads; the figures come from the read that is
 * published, so the stats beside `tests_passing` agree with it.
 */
export async function readCheckedLedger(ledger: GhostLedgerRepository, now: number): Promise<CheckedLedger> {
  let read = await readLedger(ledger, now);
  let checks = integrityChecks(read.snapshot);
  for (let n = 1; n < READS_BEFORE_FAILING && checks.some((c) => !c.passed); n++) {
    read = await readLedger(ledger, now);
    checks = integrityChecks(read.snapshot);
  }
  return { ...read, checks };
}
