const HOUR = 3_600_000;

/**
 * The first turn at or after `now` that falls `offsetMs` after a multiple of `periodMs` (a bar
 * close, a 5-minute verdict slot). A scheduled turn runs a little after the instant it is about:
 * live bars reach the feed after their close, and a turn must find what the turns it reads
 * stored for that instant (composition/turn-order.ts).
 */
export function nextTurnAt(now: number, periodMs: number, offsetMs: number): number {
  return Math.ceil((now - offsetMs) / periodMs) * periodMs + offsetMs;
}

/** The first hourly turn at or after `now`, `offsetMs` after a bar close. */
export function nextBarTurn(now: number, offsetMs: number): number {
  return nextTurnAt(now, HOUR, offsetMs);
}

/** A schedule's stored tag: its version and the offset it was set with, so a new offset resets it. */
export function scheduleTag(version: number, offsetMs: number, extra = ""): string {
  return `v${version}+${offsetMs}ms${extra}`;
}
