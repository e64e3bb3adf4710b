/**
 * A schedule's stored version: the schedule's own version and the offset it was set with, so a
 * new offset resets it. A number, as the schedule versions of earlier builds were, so that a
 * build rolled back to reads it (as a version it does not know, and sets its own schedule).
 */
export function scheduleTag(version: number, offsetMs: number, extra = 0): number {
  return version * 1_000_000_000 + offsetMs * 10 + extra;
}
