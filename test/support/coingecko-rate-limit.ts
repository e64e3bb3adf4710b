import type { FakeAnswer } from "../unit/feeds/live/fake-provider-server.js";

/** The CoinGecko endpoint the BTC dominance poller reads. */
export const COINGECKO_GLOBAL = "/api/v3/global";

/**
 * A route for FakeProviderServer: CoinGecko's documented 429 with a Retry-After of `retryAfterS`
 * seconds on its global endpoint (after `delayMs`, to outlast a poll turn), every other path down.
 */
export function coingeckoRateLimited(retryAfterS: number, delayMs = 0): (path: string) => FakeAnswer {
  return (path) =>
    path.startsWith(COINGECKO_GLOBAL)
      ? {
          status: 429,
          body: { status: { error_code: 429, error_message: "rate limited" } },
          headers: { "retry-after": String(retryAfterS) },
          ...(delayMs > 0 ? { delayMs } : {}),
        }
      : { status: 503, body: {} };
}
