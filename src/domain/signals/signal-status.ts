import type { SignalStatus } from "./signal-keys.js";

/** A reading stays STALE for this long after it stops being LIVE (DECISIONS 4). */
export const STALE_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Status of one signal by DECISIONS 4: LIVE while the last reading is at most twice the source's
 * refresh interval old, STALE for a further 24 hours, DEAD after that. No source in this mode
 * (`refreshMs` null) or no reading ever: DEAD, so nothing is shown as live that is not.
 */
export function signalStatus(lastObservedAt: number | null, refreshMs: number | null, now: number): SignalStatus {
  if (refreshMs === null || lastObservedAt === null) return "DEAD";
  // A provider clock slightly ahead of ours must not make a fresh reading look old or dead.
  const age = Math.max(0, now - lastObservedAt);
  const liveFor = 2 * refreshMs;
  if (age <= liveFor) return "LIVE";
  if (age <= liveFor + STALE_GRACE_MS) return "STALE";
  return "DEAD";
}

const HOUR = 60 * 60 * 1000;

/**
 * Whether an hourly bar (by its open time) is still the current one's figures at `now`: its close
 * is LIVE by the rule above (at most 2 hours old). Past that the asset has no current price,
 * whether the exchange is down or its history has ended.
 */
export function hourlyBarIsCurrent(barOpen: number | null, now: number): boolean {
  return barOpen !== null && signalStatus(barOpen + HOUR, HOUR, now) === "LIVE";
}
