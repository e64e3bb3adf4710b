/** Seconds to wait from a Retry-After header: delta-seconds or an HTTP date (RFC 9110 10.2.3). */
export function parseRetryAfter(header: string | null, nowMs: number = Date.now()): number | null {
  if (header === null || header.trim() === "") return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/**
 * Whether a failed attempt is worth repeating. 429 and 503 only when the service says when
 * (Retry-After): a 503 not_ready or a 429 daily_limit_exceeded without the header will not
 * change within a retry loop, so retrying would only burn quota. 502/504 and network failures
 * are transient by nature.
 */
export function isRetryable(status: number | null, retryAfterSeconds: number | null): boolean {
  if (status === null) return true;
  if (status === 429 || status === 503) return retryAfterSeconds !== null;
  return status === 502 || status === 504;
}

/** Exponential backoff with full jitter for failures that carry no Retry-After. */
export function backoffMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  return Math.round(random() * baseMs * 2 ** attempt);
}
