const HOUR = 3_600_000;

/**
 * The first hourly turn at or after `now` that falls `offsetMs` after a bar close. Live bars reach
 * the feed a little after their close (Market.barSettleMs); a turn exactly on the hour would find
 * the bar that just closed missing and act on it an hour late.
 */
export function nextBarTurn(now: number, offsetMs: number): number {
  return Math.ceil((now - offsetMs) / HOUR) * HOUR + offsetMs;
}

/** A schedule's stored tag: its version and the offset it was set with, so a new offset resets it. */
export function scheduleTag(version: number, offsetMs: number, extra = ""): string {
  return `v${version}+${offsetMs}ms${extra}`;
}
