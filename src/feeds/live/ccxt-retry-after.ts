import { z } from "zod";
import type { Clock } from "../../runtime/clocks/clock.js";
import type { ProviderHoldRepository } from "../../store/ports/provider-holds.js";
import { MAX_PROVIDER_HOLD_MS } from "./circuit-breaker.js";
import type { Warn } from "./feed-sync.js";
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

/** Where the hold is kept for every replica (the store), under which name, and where its failures are reported. */
export interface SharedExchangeHold {
  readonly holds: ProviderHoldRepository;
  /** The exchange's name in the store: one per API host (Binance spot and futures keep apart limits). */
  readonly provider: string;
  readonly warn: Warn;
}

/**
 * Honours an exchange's Retry-After on a 418 or a 429 for every call this deployment makes to it.
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
 * The hold lives on this exchange object, not on `last_response_headers`, which concurrent calls
 * overwrite; and, with `shared`, in the store, so the other replicas' exchange objects (on the
 * same IP, as the documented deployments are) wait it out too: each request reads the stored end
 * first. A store that cannot be read or written is reported and this process's own hold still
 * applies. Call it before the first request.
 */
export function heedCcxtRetryAfter<E extends RestResponseHook>(exchange: E, clock: Clock, shared?: SharedExchangeHold): E {
  // A ccxt upgrade that renames these steps must fail at start, not silently drop the exchange's asks.
  if (typeof exchange.fetch !== "function" || typeof exchange.handleRestResponse !== "function" || typeof exchange.getResponseHeaders !== "function") {
    throw new Error("ccxt no longer exposes fetch and handleRestResponse; an exchange's Retry-After cannot be honoured");
  }
  let heldUntil = 0;
  const ownFetch = exchange.fetch.bind(exchange);
  const storedUntil = async (): Promise<number> => {
    if (shared === undefined) return 0;
    try {
      return await shared.holds.until(shared.provider);
    } catch (err) {
      shared.warn(`the store's hold on ${shared.provider} could not be read; this process's own applies`, err);
      return 0;
    }
  };
  exchange.fetch = async (...args: unknown[]) => {
    const left = Math.max(heldUntil, await storedUntil()) - clock.now();
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
    if (asked !== undefined) {
      heldUntil = Math.max(heldUntil, now + Math.min(asked, MAX_PROVIDER_HOLD_MS));
      if (shared !== undefined) {
        try {
          await shared.holds.extend(shared.provider, heldUntil);
        } catch (err) {
          shared.warn(`the hold ${shared.provider} asked for could not be stored; only this process holds off`, err);
        }
      }
    }
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
