import { ProviderError } from "./provider-error.js";

export interface RetryOptions {
  /** Attempts in total, the first included. */
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** Random source in [0, 1) for jitter; injectable so tests are deterministic. */
  readonly random?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Delay before retry `n` (1-based): exponential backoff with "full jitter" (a random share of
 * base·2^(n−1), capped), so many pollers failing together do not retry in lock-step. A 429's
 * Retry-After wins when it asks for longer, up to the cap (withRetry does not wait past it).
 */
export function backoffDelay(n: number, error: unknown, options: RetryOptions): number {
  const random = options.random ?? Math.random;
  const exp = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (n - 1));
  const jittered = Math.round(exp / 2 + (random() * exp) / 2);
  const asked = error instanceof ProviderError ? (error.retryAfterMs ?? 0) : 0;
  return Math.min(Math.max(jittered, asked), options.maxDelayMs);
}

/** Whether the provider asked to be left alone for longer than a poll may wait. */
function asksPastCap(error: unknown, options: RetryOptions): boolean {
  return error instanceof ProviderError && (error.retryAfterMs ?? 0) > options.maxDelayMs;
}

/** Runs `call`, retrying transient ProviderErrors; anything else fails at once. */
export async function withRetry<T>(call: () => Promise<T>, options: RetryOptions): Promise<T> {
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      const transient = err instanceof ProviderError && err.retryable;
      // A Retry-After past the cap (a day's ban) ends the poll now, failed: sleeping through it
      // held the single-flight poll open with nothing recorded, so health read CLOSED and no
      // warning fired while the signals aged into DEAD.
      if (!transient || attempt >= options.attempts || asksPastCap(err, options)) throw err;
      await sleep(backoffDelay(attempt, err, options));
    }
  }
}
