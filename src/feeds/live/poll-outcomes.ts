import type { Logger } from "../../logging/logger.js";
import type { Clock } from "../../runtime/clocks/clock.js";
import { countLivePoll, showLiveHold } from "../../observability/live-source-metrics.js";
import type { PollResult } from "./resilient-provider.js";

/**
 * The same poll, reporting how it ends: each poll is counted by outcome, and a source that stays
 * down is logged once where it starts failing and once where it answers again, not on every poll
 * (a candle poll fails each minute). This wraps the poll itself, not the MarketPoller actor's
 * turn, because a poll in retry backoff can land after its turn stopped waiting. The span lives
 * as long as the process's poller: it only spares the log repeated lines, so nothing here is
 * shared with other replicas (each reports the polls it makes).
 */
export function reportingOutcomes(
  id: string,
  poll: () => Promise<PollResult<unknown>>,
  logger: Logger,
  clock: Clock,
  /** The provider's own hold after the poll (ResilientProvider.providerHoldUntil), or null. */
  holdUntil: () => number | null,
): () => Promise<PollResult<unknown>> {
  let failingSince: string | null = null;
  let loggedHold: number | null = null;
  return async () => {
    const r = await poll();
    countLivePoll(id, r.ok ? "ok" : r.error.kind);
    const hold = holdUntil();
    showLiveHold(id, hold);
    const at = new Date(clock.now()).toISOString();
    // A ban is what an operator must see: once per ask, with its end, even while already failing.
    if (hold !== null && hold !== loggedHold) {
      loggedHold = hold;
      logger.warn({ poller: id, until: new Date(hold).toISOString(), at }, `live source asked us to wait: ${id}`);
    }
    if (!r.ok && failingSince === null) {
      failingSince = at;
      logger.warn({ poller: id, kind: r.error.kind, err: r.error.message, at }, `live source failing: ${id}`);
    } else if (r.ok && failingSince !== null) {
      logger.info({ poller: id, since: failingSince, at }, `live source answering again: ${id}`);
      failingSince = null;
    }
    return r;
  };
}
