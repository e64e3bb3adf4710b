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

/** What a Retry-After header (seconds or HTTP date) asks for, in ms; 0 when absent or unreadable. */
export function retryAfterMs(retryAfter: string | null, now: number = Date.now()): number {
  if (retryAfter === null) return 0;
  const secs = Number(retryAfter);
  if (Number.isFinite(secs)) return Math.max(secs * 1000, 0);
  const at = Date.parse(retryAfter);
  return Number.isFinite(at) ? Math.max(at - now, 0) : 0;
}

/**
 * Delay before retry `n` (0-based): exponential from the base, but never shorter than the
 * provider's Retry-After, and never longer than the cap: a session must not hang on a provider
 * asking for minutes (the transport does not retry at all then). No jitter: councils call one at
 * a time, so there is no herd to spread, and tests stay deterministic.
 */
export function retryDelayMs(policy: RetryPolicy, n: number, retryAfter: string | null, now: number = Date.now()): number {
  return Math.min(policy.maxDelayMs, Math.max(policy.baseDelayMs * 2 ** n, retryAfterMs(retryAfter, now)));
}
