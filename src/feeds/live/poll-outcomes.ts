import type { Logger } from "../../logging/logger.js";
import type { Clock } from "../../runtime/clocks/clock.js";
import { countLivePoll } from "../../observability/live-source-metrics.js";
import type { PollResult } from "./resilient-provider.js";

/**
 * The same poll, reporting how it ends: each poll is counted by outcome, and a source that stays
 * down is logged once where it starts failing and once where it answers again, not on every poll
 * (a candle poll fails each minute). This wraps the poll itself, not the MarketPoller actor's
 * turn, because a poll in retry backoff can land after its turn stopped waiting. The span lives
 * as long as the process's poller: it only spares the log repeated lines, so nothing here is
 * shared with other replicas (each reports the polls it makes).
 */
export function reportingOutcomes(id: string, poll: () => Promise<PollResult<unknown>>, logger: Logger, clock: Clock): () => Promise<PollResult<unknown>> {
  let failingSince: string | null = null;
  return async () => {
    const r = await poll();
    countLivePoll(id, r.ok ? "ok" : r.error.kind);
    const at = new Date(clock.now()).toISOString();
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
