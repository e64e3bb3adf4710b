import type { Logger } from "../logging/logger.js";
import type { ReplayMarketClock } from "../runtime/clocks/market-clock.js";
import type { LocalActorHost } from "../runtime/local/local-host.js";

/** The shortest schedule (verdicts every 5 market minutes): warm-up never steps over a firing. */
export const WARM_UP_STEP_MS = 5 * 60_000;

export interface WarmUpResult {
  readonly from: number;
  readonly to: number;
  readonly steps: number;
  readonly wallMs: number;
}

/**
 * Fast-forwards the replay clock to `until` in fixed steps, firing every reminder that falls due
 * and waiting for its turns before the next step, so the actors produce the same history they
 * would have produced running at REPLAY_SPEED (DECISIONS 1 warm-up). Runs before the clock runs.
 *
 * `stop` (the service stopping) ends the warm-up at its next step and shuts `host` down at once:
 * a step can hold turns that take seconds (each Evidence actor's first evaluation of the whole
 * held-out span), and they give up at their next event-loop slice and roll back instead of
 * holding the shutdown past DECISIONS 1's 10 s. Turns that do not watch the stop signal finish.
 */
export async function warmUp(
  clock: ReplayMarketClock,
  host: LocalActorHost,
  until: number,
  logger: Logger,
  stop: AbortSignal,
  stepMs = WARM_UP_STEP_MS,
): Promise<WarmUpResult> {
  const started = Date.now();
  const from = clock.now();
  const shutDown = (): void => {
    host.shutdown().catch((err: unknown) => logger.error({ err }, "stopping the warm-up's actor host failed"));
  };
  stop.addEventListener("abort", shutDown, { once: true });
  try {
    let steps = 0;
    let lastLog = started;
    // Steps on the grid of the schedules (whole 5 market minutes): a turn due between two steps
    // fires at the next one, less than a period late, so it is still about its own slot.
    for (let t = Math.floor(from / stepMs) * stepMs + stepMs; t < until; t += stepMs) {
      if (stop.aborted) return { from, to: clock.now(), steps, wallMs: Date.now() - started };
      clock.advanceTo(t);
      await host.runDue();
      steps += 1;
      if (Date.now() - lastLog > 5_000) {
        lastLog = Date.now();
        logger.info({ market_time: new Date(t).toISOString(), until: new Date(until).toISOString() }, "warming up");
      }
    }
    if (stop.aborted) return { from, to: clock.now(), steps, wallMs: Date.now() - started };
    clock.advanceTo(until);
    await host.runDue();
    steps += 1;
    return { from, to: clock.now(), steps, wallMs: Date.now() - started };
  } finally {
    stop.removeEventListener("abort", shutDown);
  }
}
