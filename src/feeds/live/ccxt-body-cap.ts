import { MAX_BODY_BYTES } from "./http-json.js";

/** What this module sets on a ccxt exchange: its undici Agent's options and its default request headers. */
export interface DispatcherOptionsHook {
  getDispatcherOptions(isPlainAgent?: boolean): Record<string, unknown>;
  headers: Record<string, string>;
}

/**
 * Caps every answer `exchange` reads at `maxBytes`, as http-json.ts caps every other provider's:
 * ccxt reads an exchange's body whole, so a proxy's error page or a misbehaving endpoint could
 * make the service buffer any size. ccxt sends its requests through an undici Agent built from
 * `getDispatcherOptions`, and undici refuses a body past `maxResponseSize` while it streams in
 * (error code UND_ERR_RES_EXCEEDED_MAX_SIZE, read as `malformed` by ccxtProviderError). The
 * cap counts bytes as they arrive, and ccxt asks for gzip, deflate or br and inflates without a
 * limit, so a 16 MB compressed body could inflate to gigabytes: the exchange is asked for its
 * answers uncompressed (ccxt leaves an Accept-Encoding it is given alone).
 * Call it before the first request: ccxt builds its Agent once, on that request.
 */
export function capCcxtBodies<E extends DispatcherOptionsHook>(exchange: E, maxBytes: number = MAX_BODY_BYTES): E {
  // A ccxt upgrade that drops the hook must fail at start, not silently lift the cap.
  if (typeof exchange.getDispatcherOptions !== "function") throw new Error("ccxt no longer exposes getDispatcherOptions; the body cap cannot be set");
  const own = exchange.getDispatcherOptions.bind(exchange);
  exchange.getDispatcherOptions = (isPlainAgent?: boolean) => ({ ...own(isPlainAgent), maxResponseSize: maxBytes });
  exchange.headers = { ...exchange.headers, "Accept-Encoding": "identity" };
  return exchange;
}
