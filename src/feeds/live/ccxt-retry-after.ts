import { z } from "zod";
import type { Clock } from "../../runtime/clocks/clock.js";
import { MAX_PROVIDER_HOLD_MS } from "./circuit-breaker.js";
import { asksToWait, retryAfterMs } from "./throttle-answer.js";

/** What this module sets on a ccxt exchange: the request step and the step that reads every REST answer. */
export interface RestResponseHook {
  fetch(...args: unknown[]): Promise<unknown>;
  handleRestResponse(response: unknown, ...rest: unknown[]): Promise<unknown>;
  getResponseHeaders(response: unknown): Record<string, unknown>;
}

const StatusShape = z.object({ status: z.number() });
const AskedShape = z.object({ retryAfterMs: z.number().nonnegative() });

/** A call refused without a request, because the exchange asked this process to wait until `retryAfterMs` from now. */
export class ExchangeHoldError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(`the exchange asked not to be called for another ${Math.ceil(retryAfterMs / 1000)} s`);
    this.name = "ExchangeHoldError";
  }
}

/**
 * Honours an exchange's Retry-After on a 418 or a 429 for every call this process makes to it.
 *
 * ccxt turns those answers into DDoSProtection or RateLimitExceeded and drops the headers, so a
 * two-hour Binance ban (documented: "a Retry-After header is sent with a 418 or 429 … until the
 * ban is over") was honoured for the breaker's one-minute cool-down. And a ban is on the IP, not
 * on the call that heard it: the four candle pollers and the traders' order-book probes share one
 * exchange, and each went on calling through a ban another had heard, which is what makes Binance
 * lengthen a ban (2 minutes up to 3 days). So:
 * - the ask is attached to the error ccxt raises (`askedWaitOf`), for the caller's breaker and
 *   its poller actor's state;
 * - until it ends (three days at most, as the breaker bounds it), every request of this exchange
 *   is refused before it is sent, with an ExchangeHoldError saying how long is left.
 * The hold lives on this exchange object (one per process, on the process's own IP), not on
 * `last_response_headers`, which concurrent calls overwrite. Call it before the first request.
 */
export function heedCcxtRetryAfter<E extends RestResponseHook>(exchange: E, clock: Clock): E {
  // A ccxt upgrade that renames these steps must fail at start, not silently drop the exchange's asks.
  if (typeof exchange.fetch !== "function" || typeof exchange.handleRestResponse !== "function" || typeof exchange.getResponseHeaders !== "function") {
    throw new Error("ccxt no longer exposes fetch and handleRestResponse; an exchange's Retry-After cannot be honoured");
  }
  let heldUntil = 0;
  const ownFetch = exchange.fetch.bind(exchange);
  exchange.fetch = async (...args: unknown[]) => {
    const left = heldUntil - clock.now();
    if (left > 0) throw new ExchangeHoldError(left);
    return ownFetch(...args);
  };
  const ownRead = exchange.handleRestResponse.bind(exchange);
  exchange.handleRestResponse = async (response: unknown, ...rest: unknown[]) => {
    const status = StatusShape.safeParse(response);
    if (!status.success || !asksToWait(status.data.status)) return ownRead(response, ...rest);
    const header = exchange.getResponseHeaders(response)["Retry-After"];
    const now = clock.now();
    const asked = retryAfterMs(typeof header === "string" ? header : undefined, now);
    if (asked !== undefined) heldUntil = Math.max(heldUntil, now + Math.min(asked, MAX_PROVIDER_HOLD_MS));
    try {
      return await ownRead(response, ...rest);
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
