import type { Clock } from "../../runtime/clocks/clock.js";
import { capCcxtBodies, type DispatcherOptionsHook } from "./ccxt-body-cap.js";
import { reloadFailedMarkets, type MarketLoadHook } from "./ccxt-market-reload.js";
import { heedCcxtRetryAfter, type RestResponseHook, type SharedExchangeHold } from "./ccxt-retry-after.js";

/**
 * A ccxt exchange as the service calls it: answers read under the body cap, an exchange's ask to
 * wait (Retry-After on a 418 or 429) honoured by every call to it, on the wall clock (and, with
 * `shared`, by every replica's), and a failed market load tried again by the next call rather
 * than kept. Call it on a new exchange, before its first request.
 */
export function guardCcxtExchange<E extends DispatcherOptionsHook & RestResponseHook & MarketLoadHook>(exchange: E, wall: Clock, shared?: SharedExchangeHold): E {
  return reloadFailedMarkets(heedCcxtRetryAfter(capCcxtBodies(exchange), wall, shared));
}
