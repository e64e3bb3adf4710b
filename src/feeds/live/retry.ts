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
 * Retry-After wins when it asks for longer.
 */
export function backoffDelay(n: number, error: unknown, options: RetryOptions): number {
  const random = options.random ?? Math.random;
  const exp = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (n - 1));
  const jittered = Math.round(exp / 2 + (random() * exp) / 2);
  const asked = error instanceof ProviderError ? (error.retryAfterMs ?? 0) : 0;
  return Math.min(Math.max(jittered, asked), Math.max(options.maxDelayMs, asked));
}

/** Runs `call`, retrying transient ProviderErrors; anything else fails at once. */
export async function withRetry<T>(call: () => Promise<T>, options: RetryOptions): Promise<T> {
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      const transient = err instanceof ProviderError && err.retryable;
      if (!transient || attempt >= options.attempts) throw err;
      await sleep(backoffDelay(attempt, err, options));
    }
  }
}
