/**
 * The next firing of a periodic schedule after `now`, on its original grid. Missed periods
 * (a process that was down, a slow turn) collapse into the one firing that is happening now,
 * so a backlog never replays every period (cf. dapr/dapr#4500).
 */
export function nextDueAfter(dueAt: number, periodMs: number, now: number): number {
  if (dueAt > now) return dueAt;
  const missed = Math.floor((now - dueAt) / periodMs) + 1;
  return dueAt + missed * periodMs;
}

/**
 * How long after a failed turn a one-shot reminder fires again, on its own clock. A rolled-back
 * turn also rolled back whatever it would have scheduled next (a webhook's retry), so dropping
 * the reminder would leave the actor's pending work without anything to wake it. Long enough
 * that a handler failing every time costs a log line, not a loop.
 */
export const FAILED_ONE_SHOT_RETRY_MS = 30_000;
