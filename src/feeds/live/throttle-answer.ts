/**
 * A provider's answers that ask us to wait: 429 (RFC 6585), and 418, by which Binance says the
 * IP is banned for calling through its 429s ("a Retry-After header is sent with a 418 or 429 …
 * until the ban is over"). Binance is reached through ccxt, and no provider on the plain JSON
 * client sends a 418; reading it as a throttle everywhere costs nothing and keeps one rule for
 * both clients, should a plain endpoint ever answer one.
 */
export function asksToWait(status: number): boolean {
  return status === 429 || status === 418;
}

/**
 * An HTTP Retry-After value (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) as milliseconds
 * from now, or undefined when absent or unreadable.
 */
export function retryAfterMs(header: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  if (header === null || header === undefined || header.trim() === "") return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
