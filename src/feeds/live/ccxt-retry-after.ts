import { z } from "zod";
import { asksToWait, retryAfterMs } from "./throttle-answer.js";

/** What this module sets on a ccxt exchange: the step that reads every REST answer. */
export interface RestResponseHook {
  handleRestResponse(response: unknown, ...rest: unknown[]): Promise<unknown>;
  getResponseHeaders(response: unknown): Record<string, unknown>;
}

const StatusShape = z.object({ status: z.number() });
const AskedShape = z.object({ retryAfterMs: z.number().nonnegative() });

/**
 * Keeps an exchange's Retry-After with the error ccxt raises for a 418 or a 429. ccxt turns those
 * answers into DDoSProtection or RateLimitExceeded and drops the headers, so a two-hour Binance
 * ban (documented: "a Retry-After header is sent with a 418 or 429 … until the ban is over") was
 * honoured for the breaker's one-minute cool-down, and every minute's poll called through it,
 * which is what makes Binance lengthen a ban (2 minutes up to 3 days). The ask is attached to
 * the error, not kept on the shared exchange (`last_response_headers`), because the candle,
 * order-book and derivatives pollers call one exchange at once. Call it before the first request.
 */
export function heedCcxtRetryAfter<E extends RestResponseHook>(exchange: E): E {
  // A ccxt upgrade that renames the step must fail at start, not silently drop the exchange's asks.
  if (typeof exchange.handleRestResponse !== "function" || typeof exchange.getResponseHeaders !== "function") {
    throw new Error("ccxt no longer exposes handleRestResponse; an exchange's Retry-After cannot be read");
  }
  const own = exchange.handleRestResponse.bind(exchange);
  exchange.handleRestResponse = async (response: unknown, ...rest: unknown[]) => {
    const status = StatusShape.safeParse(response);
    if (!status.success || !asksToWait(status.data.status)) return own(response, ...rest);
    const header = exchange.getResponseHeaders(response)["Retry-After"];
    const asked = retryAfterMs(typeof header === "string" ? header : undefined);
    try {
      return await own(response, ...rest);
    } catch (err) {
      if (asked !== undefined && err instanceof Error) Object.defineProperty(err, "retryAfterMs", { value: asked });
      throw err;
    }
  };
  return exchange;
}

/** The wait an exchange asked for, as heedCcxtRetryAfter attached it to ccxt's error, if any. */
export function askedWaitOf(err: unknown): number | undefined {
  const asked = AskedShape.safeParse(err);
  return asked.success ? asked.data.retryAfterMs : undefined;
}
