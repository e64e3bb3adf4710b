import { monitorEventLoopDelay } from "node:perf_hooks";

/** How long the target's event loop was held up since the last read (the read resets it). */
export interface LoopDelay {
  readonly max_ms: number;
  readonly p99_ms: number;
}

/**
 * A target's own event-loop delay, read by the load generator around each measured round: it
 * tells a tail latency caused inside the target (a long synchronous turn: an actor's slice, a
 * store write, GC) from one caused by the machine or the client.
 */
export function loopDelayProbe(): () => LoopDelay {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  return () => {
    const out = { max_ms: histogram.max / 1e6, p99_ms: histogram.percentile(99) / 1e6 };
    histogram.reset();
    return out;
  };
}
