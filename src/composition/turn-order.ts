/** Verdicts and councils after the regime of the same close; the traders after all of them. */
const STEP_MS = 30_000;

/** How long after the instant it is about each scheduled turn runs, ms of market time. */
export interface TurnOffsets {
  readonly regime: number;
  readonly evidence: number;
  readonly verdict: number;
  readonly council: number;
  readonly trader: number;
}

/**
 * The order of the turns about one close, as offsets after it: the bar settles in the feed
 * (`barSettleMs`: live 2 minutes, replay none), then the regime (and the evidence) turn, then the
 * verdicts and councils, which read that regime, then the traders, which read all three. Turns
 * due at one instant run side by side on the in-process host and on any replica under Dapr, so
 * without the offsets a verdict read the hour before's regime or this one's by chance, and a
 * trader the close's verdict or the one 5 minutes before; the backtest reads them all at the close.
 */
export function turnOffsets(barSettleMs: number): TurnOffsets {
  return {
    regime: barSettleMs,
    evidence: barSettleMs,
    verdict: barSettleMs + STEP_MS,
    council: barSettleMs + STEP_MS,
    trader: barSettleMs + 2 * STEP_MS,
  };
}
