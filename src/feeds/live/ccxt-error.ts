import { BodyOverCapError } from "./ccxt-body-cap.js";
import { NoMarketsError } from "./ccxt-market-reload.js";
import { askedWaitOf, ExchangeHoldError } from "./ccxt-retry-after.js";
import { ProviderError } from "./provider-error.js";

/**
 * A ccxt failure as a ProviderError. ccxt raises its own error classes and keeps no HTTP status,
 * so the class name decides whether a retry can help (rate limit, timeout, network) or not.
 */
export function ccxtProviderError(provider: string, err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  // Refused before it was sent: the exchange's ask, heard by another call of this process, still holds.
  if (err instanceof ExchangeHoldError) return new ProviderError(provider, "rate_limited", err.message, undefined, err.retryAfterMs);
  // A markets list that listed nothing (ccxt-market-reload.ts): the answer is not what was asked for.
  if (err instanceof NoMarketsError) return new ProviderError(provider, "malformed", err.message);
  // undici's refusal of a body past the cap (ccxt-body-cap.ts): the answer is not what was asked for.
  if (err instanceof BodyOverCapError || (err instanceof Error && (err as Error & { code?: unknown }).code === "UND_ERR_RES_EXCEEDED_MAX_SIZE")) {
    return new ProviderError(provider, "malformed", "response body over the size cap");
  }
  const name = err instanceof Error ? `${err.name} ${err.constructor.name}` : "";
  const kind = /RateLimitExceeded|DDoSProtection/.test(name)
    ? "rate_limited"
    : /RequestTimeout/.test(name)
      ? "timeout"
      : /NetworkError|ExchangeNotAvailable|OnMaintenance/.test(name)
        ? "network"
        : "http";
  const message = err instanceof Error ? err.message : "ccxt call failed";
  // An exchange's Retry-After (a 429, Binance's 418 ban), kept by heedCcxtRetryAfter: the breaker honours it.
  return new ProviderError(provider, kind, message, undefined, kind === "rate_limited" ? askedWaitOf(err) : undefined);
}
