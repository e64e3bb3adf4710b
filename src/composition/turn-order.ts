/** The traders a minute after the close's other turns. */
const TRADERS_AFTER_MS = 60_000;

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
 * (`barSettleMs`: live 2 minutes, replay none), then the regime, evidence, verdict and council
 * turns, then the traders, which read all of them. Turns due at one instant run side by side on
 * the in-process host and on any replica under Dapr, so without the offset a trader read the
 * close's verdict or the one 5 minutes before by chance; the backtest reads them at the close.
 * Verdicts and councils share the regime's instant and ask the Regime actor for their close's
 * evaluation when it is not stored yet (actors/regime-of-ruling.ts); the traders likewise ask the
 * Verdict and Council actors for their close's rulings. The offsets only make those asks rare.
 */
export function turnOffsets(barSettleMs: number): TurnOffsets {
  return {
    regime: barSettleMs,
    evidence: barSettleMs,
    // With the regime for now: 30 s after it made a Dapr replica that is still waiting for the
    // cluster's clock see (and serve) the warm-up's first verdict of its own start slot, and the
    // chaos suite's daprd-kill scenario failed on it in CI (docs/decisions.md).
    verdict: barSettleMs,
    council: barSettleMs,
    trader: barSettleMs + TRADERS_AFTER_MS,
  };
}
