import type { CouncilMode } from "./council-types.js";

/** DECISIONS 7: a council answer from the model is fresh for 45 minutes of market time. */
export const COUNCIL_FRESHNESS_MS = 45 * 60 * 1000;

export interface CouncilHistory {
  /** The newest stored session, or null when there is none. */
  readonly lastSession: { readonly at: number; readonly mode: CouncilMode } | null;
  /** Time of the newest session in which the model answered (mode `council`), or null. */
  readonly lastModelSessionAt: number | null;
}

/**
 * `council_mode` at response time (DECISIONS 7): `council` while the newest model-answered
 * session is at most 45 minutes old, `judiciary` when sessions exist but that one is older or
 * none ever had a model, null with no council data. During a BLACKOUT no sessions run, so the
 * freshness clock would flip the mode for a reason that is not the provider: the last session's
 * mode stands instead. Switching back needs no action: the next model-answered session does it.
 */
export function councilModeAt(history: CouncilHistory, now: number, blackout: boolean): CouncilMode | null {
  if (history.lastSession === null) return null;
  if (blackout) return history.lastSession.mode;
  if (history.lastModelSessionAt !== null && now - history.lastModelSessionAt <= COUNCIL_FRESHNESS_MS) return "council";
  return "judiciary";
}
