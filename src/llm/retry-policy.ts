export interface RetryPolicy {
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8_000 };

/** 408, 409, 429 and 5xx are worth another try; other 4xx (bad key, bad request) never improve. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Delay before retry `n` (0-based): exponential from the base, but never shorter than the
 * provider's Retry-After (seconds or HTTP date), and never longer than the cap: a session must
 * not hang on a provider asking for minutes. No jitter: councils call one at a time, so there
 * is no herd to spread, and tests stay deterministic.
 */
export function retryDelayMs(policy: RetryPolicy, n: number, retryAfter: string | null, now: number = Date.now()): number {
  const exp = policy.baseDelayMs * 2 ** n;
  let asked = 0;
  if (retryAfter !== null) {
    const secs = Number(retryAfter);
    if (Number.isFinite(secs)) asked = secs * 1000;
    else {
      const at = Date.parse(retryAfter);
      if (Number.isFinite(at)) asked = at - now;
    }
  }
  return Math.min(policy.maxDelayMs, Math.max(exp, asked, 0));
}
