import type { LedgerSnapshot } from "../domain/ghost/ledger-integrity.js";
import type { OpenPosition } from "../domain/ghost/trade.js";
import { ASSETS, type Asset } from "../domain/signals/signal-keys.js";
import type { GhostLedgerRepository } from "../store/ports/ghost-ledger.js";
import { countedUnderSprints, sinceFor } from "../domain/ghost/sprints.js";

/**
 * The ledger as of market time `now`, read the way the routes read it, for the integrity checks
 * behind `tests_passing` and the TAO sign-off: the whole ledger, the open positions of the status
 * snapshots, each asset's own cutoff, and what each asset's track record publishes (its own
 * per-asset read, counted under its own cutoff).
 */
export async function readLedgerSnapshot(ledger: GhostLedgerRepository, now: number): Promise<LedgerSnapshot> {
  const [all, marks, snaps, ...perAsset] = await Promise.all([
    ledger.closed(),
    ledger.sprints(),
    ledger.snapshots(),
    ...ASSETS.map((a) => ledger.closed(a)),
  ]);
  const cutoffs = Object.fromEntries(ASSETS.map((a) => [a, sinceFor(a, marks)])) as Record<Asset, number>;
  const published = Object.fromEntries(
    ASSETS.map((a, i) => [a, countedUnderSprints((perAsset[i] ?? []).filter((t) => t.exitTime <= now), marks)]),
  ) as Record<Asset, ReturnType<typeof countedUnderSprints>>;
  return {
    closed: all.filter((t) => t.exitTime <= now),
    open: snaps.map((s) => s.position).filter((p): p is OpenPosition => p !== null),
    cutoffs,
    published,
  };
}
