import { signalStatus } from "../domain/signals/signal-status.js";
import type { RegimeHistoryRepository, StoredRegime } from "../store/ports/regime-history.js";

const HOUR = 3_600_000;

/**
 * The regime now: the newest evaluation at or before `at` while it is LIVE (the detector runs at
 * each hourly bar close, so at most 2 hours old, DECISIONS 4's status rule), else null. After a
 * gap in the price the newest row is from before it: that was the regime then, not now, and is
 * read as unknown until the detector has evaluated the bars that came back.
 */
export async function currentRegimeAt(regimes: Pick<RegimeHistoryRepository, "latestAtOrBefore">, at: number): Promise<StoredRegime | null> {
  const latest = await regimes.latestAtOrBefore(at);
  return latest !== null && signalStatus(latest.at, HOUR, at) === "LIVE" ? latest : null;
}
