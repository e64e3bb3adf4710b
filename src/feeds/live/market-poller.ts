import type { PollResult } from "./resilient-provider.js";

/**
 * One live poll schedule: a provider (or one asset's candles) and its period. The Market only
 * describes its pollers; the MarketPoller actors' reminders run them, so the schedule is the same
 * on the local host and on Dapr (issue 5 item 8).
 */
export interface MarketPoller {
  /** Provider id (`deribit`, ...) or `candles:<ASSET>`; also the poller actor's id. */
  readonly id: string;
  /** Poll period in wall-clock ms (live mode runs on wall time). */
  readonly everyMs: number;
  /** Never throws: a failure is a `{ok: false}` result. A call while one is in flight joins it. */
  poll(): Promise<PollResult<unknown>>;
  /**
   * Until when (wall ms) the provider asked not to be called (a 429's Retry-After, Binance's
   * 418 ban), while that is ahead; else null. The poller's actor keeps it in its state, so the
   * replica the actor moves to, or the process after a restart, does not call through a ban.
   */
  providerHoldUntil(): number | null;
  /** Honours such a hold recorded by an earlier activation of the poller's actor. */
  holdUntil(untilMs: number): void;
}

/**
 * Wraps a poll so calls never overlap: while one runs (a provider in backoff can take tens of
 * seconds) later calls get the same promise instead of a second request. `inFlight` lets the
 * owner wait for the running polls at shutdown.
 */
export function singleFlight<R extends PollResult<unknown>>(poll: () => Promise<R>, inFlight: Set<Promise<unknown>>): () => Promise<R> {
  let running: Promise<R> | null = null;
  return () => {
    if (running) return running;
    const current = poll().finally(() => {
      inFlight.delete(current);
      running = null;
    });
    running = current;
    inFlight.add(current);
    return current;
  };
}
