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
 * (Retry-After): a 503 not_ready or a quota that runs out at midnight will not change within a
 * retry loop, so retrying would only burn quota; the service refused those before it acted, so
 * they are safe to repeat for any method. A network failure, a timeout, 502 or 504 leaves unknown
 * whether the service acted, so only a read is repeated: repeating a POST could lose the key a
 * rotation showed once, create a second webhook or replace a secret twice.
 */
export function isRetryable(method: string, status: number | null, retryAfterSeconds: number | null): boolean {
  if (status === 429 || status === 503) return retryAfterSeconds !== null;
  const read = method === "GET" || method === "HEAD";
  return read && (status === null || status === 502 || status === 504);
}

/** Exponential backoff with full jitter for failures that carry no Retry-After. */
export function backoffMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  return Math.round(random() * baseMs * 2 ** attempt);
}
