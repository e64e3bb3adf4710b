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

/** A BLACKOUT pauses the councils for one UTC day: the session before it may be that much older. */
const BLACKOUT_PAUSE_MS = 24 * 60 * 60 * 1000;

/**
 * Whether a stored session still speaks for the council now (SPEC "BTC verdict": the council
 * fields are null "when no recent council verdict exists"). Sessions run every 30 market minutes,
 * so one at most 45 minutes old is recent (one slot's delay tolerated, as for `council_mode`);
 * during a BLACKOUT day, when no session runs, the last one before the pause stands, as the mode
 * does. Anything older says nothing about the market now: the councils have stopped.
 */
export function isRecentSession(sessionAt: number, now: number, blackout: boolean): boolean {
  const age = now - sessionAt;
  return age <= COUNCIL_FRESHNESS_MS || (blackout && age <= BLACKOUT_PAUSE_MS + COUNCIL_FRESHNESS_MS);
}
