import { MAX_BODY_BYTES } from "./http-json.js";

/** The one ccxt hook this module leans on: the options of the undici Agent ccxt builds for its requests. */
export interface DispatcherOptionsHook {
  getDispatcherOptions(isPlainAgent?: boolean): Record<string, unknown>;
}

/**
 * Caps every answer `exchange` reads at `maxBytes`, as http-json.ts caps every other provider's:
 * ccxt reads an exchange's body whole, so a proxy's error page or a misbehaving endpoint could
 * make the service buffer any size. ccxt sends its requests through an undici Agent built from
 * `getDispatcherOptions`, and undici refuses a body past `maxResponseSize` while it streams in
 * (error code UND_ERR_RES_EXCEEDED_MAX_SIZE, read as `malformed` by ccxtProviderError).
 * Call it before the first request: ccxt builds its Agent once, on that request.
 */
export function capCcxtBodies<E extends DispatcherOptionsHook>(exchange: E, maxBytes: number = MAX_BODY_BYTES): E {
  // A ccxt upgrade that drops the hook must fail at start, not silently lift the cap.
  if (typeof exchange.getDispatcherOptions !== "function") throw new Error("ccxt no longer exposes getDispatcherOptions; the body cap cannot be set");
  const own = exchange.getDispatcherOptions.bind(exchange);
  exchange.getDispatcherOptions = (isPlainAgent?: boolean) => ({ ...own(isPlainAgent), maxResponseSize: maxBytes });
  return exchange;
}
