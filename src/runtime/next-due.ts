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
