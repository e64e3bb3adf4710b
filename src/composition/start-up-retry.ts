import { setTimeout as wait } from "node:timers/promises";

/** A failed attempt at a start-up step, as the step's owner is told of it. */
export interface StartUpFailure {
  readonly err: unknown;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** The wait before the next attempt, if the owner asks for one (said in its log line). */
  readonly retryInMs: number;
}

/** What the owner of a start-up step decides after a failed attempt. */
export type AfterFailure = "try-again" | "stop-trying";

export type StartUpOutcome<T> = { readonly done: true; readonly value: T } | { readonly done: false };

/**
 * Runs a start-up step until it goes through, the service stops, or its owner stops trying. The
 * wait before another attempt is a second more each time, at most 10 s, and a stop ends it at
 * once: the whole stop has 9 s, and no attempt may start after it (on a closed store). A failure
 * that came with the stop is not reported. The start-up's four retried steps (capability starts,
 * the Dapr founder's warm-up, a replica joining the cluster, the local replay's position read)
 * share this loop, so they agree on the delays and on what a stop does.
 */
export async function retryUntilStopped<T>(
  step: (attempt: number) => Promise<T>,
  stop: AbortSignal,
  onFailure: (failure: StartUpFailure) => AfterFailure | Promise<AfterFailure>,
): Promise<StartUpOutcome<T>> {
  for (let attempt = 1; !stop.aborted; attempt++) {
    let value: T;
    try {
      value = await step(attempt);
    } catch (err) {
      if (stop.aborted) break;
      const retryInMs = startRetryDelayMs(attempt);
      if ((await onFailure({ err, attempt, retryInMs })) === "stop-trying") break;
      await pauseBeforeRetry(retryInMs, stop);
      continue;
    }
    return { done: true, value };
  }
  return { done: false };
}

/** The wait before another attempt at a start-up step: a second more per attempt, at most 10 s. */
export function startRetryDelayMs(attempt: number): number {
  return Math.min(1_000 * attempt, 10_000);
}

/** Waits `ms`, or less: it ends at once when the service stops. */
function pauseBeforeRetry(ms: number, stop: AbortSignal): Promise<void> {
  return wait(ms, undefined, { signal: stop }).then(
    () => undefined,
    () => undefined,
  );
}
