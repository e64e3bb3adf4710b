const HOUR = 3_600_000;

/**
 * How early a turn may fire and still be about the coming slot. Dapr schedules a market reminder
 * on wall time scaled by the replay speed, rounded to whole milliseconds per period, and replicas'
 * clocks differ a little: a firing can come slightly before its due time. Well under the 30 s
 * between the turns of one close (src/composition/turn-order.ts), so the order holds.
 */
export const EARLY_FIRING_TOLERANCE_MS = 10_000;

/**
 * The first turn at or after `now` that falls `offsetMs` after a multiple of `periodMs` (a bar
 * close, a 5-minute verdict slot). A scheduled turn runs a little after the instant it is about:
 * live bars reach the feed after their close, and a turn must find what the turns it reads
 * stored for that instant (src/composition/turn-order.ts).
 */
export function nextTurnAt(now: number, periodMs: number, offsetMs: number): number {
  return Math.ceil((now - offsetMs) / periodMs) * periodMs + offsetMs;
}

/** The first hourly turn at or after `now`, `offsetMs` after a bar close. */
export function nextBarTurn(now: number, offsetMs: number): number {
  return nextTurnAt(now, HOUR, offsetMs);
}

/** The slot a turn at `now` is about: the newest whose turn time has come (or is at most the tolerance away). */
export function slotAt(now: number, periodMs: number, offsetMs: number): number {
  return Math.floor((now - offsetMs + EARLY_FIRING_TOLERANCE_MS) / periodMs) * periodMs;
}

/** Whether a turn at `now` came before its slot's turn time: its reminder's phase has drifted and is set again. */
export function firedEarly(now: number, periodMs: number, offsetMs: number): boolean {
  return now < slotAt(now, periodMs, offsetMs) + offsetMs;
}

/**
 * The slots a turn about `at` makes, oldest first: every slot after `last` up to `at`, at most
 * `max` of them (the newest). A turn held up past a whole period (a busy host, a late reminder)
 * then also makes the slot whose own turn came too late, instead of leaving it out for good.
 */
export function slotsToMake(last: number | null, at: number, periodMs: number, max: number): number[] {
  const from = last === null ? at : Math.max(last + periodMs, at - (max - 1) * periodMs);
  const slots: number[] = [];
  for (let slot = from; slot <= at; slot += periodMs) slots.push(slot);
  return slots;
}
