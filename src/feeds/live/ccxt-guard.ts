import type { Clock } from "../../runtime/clocks/clock.js";
import { capCcxtBodies, type DispatcherOptionsHook } from "./ccxt-body-cap.js";
import { heedCcxtRetryAfter, type RestResponseHook } from "./ccxt-retry-after.js";

/**
 * A ccxt exchange as the service calls it: answers read under the body cap, and an exchange's
 * ask to wait (Retry-After on a 418 or 429) honoured by every call to it, on the wall clock.
 * Call it on a new exchange, before its first request.
 */
export function guardCcxtExchange<E extends DispatcherOptionsHook & RestResponseHook>(exchange: E, wall: Clock): E {
  return heedCcxtRetryAfter(capCcxtBodies(exchange), wall);
}
