/** What this module sets on a ccxt exchange: the step every unified call takes before its request. */
export interface MarketLoadHook {
  loadMarkets(reload?: boolean, params?: object): Promise<unknown>;
}

/**
 * Makes a failed load of an exchange's markets be tried again by the next call.
 *
 * ccxt loads an exchange's markets once, on the first unified call, and keeps the promise of that
 * load; when it rejects (the exchange down at start, a 5xx, a timeout, a ban) every later call
 * returns the same rejection without sending a request, until the process restarts, because ccxt
 * reloads only when asked to (`loadMarkets(true)`). Measured on the ccxt of package-lock.json: a
 * binance whose first exchangeInfo answered 503 failed its next calls with that 503 while the
 * server answered 200, sending nothing. So after a failed load the next call asks for a reload;
 * concurrent callers share the one reload, as ccxt shares the first load. Call it before the
 * first request.
 */
export function reloadFailedMarkets<E extends MarketLoadHook>(exchange: E): E {
  // A ccxt upgrade that renames the step must fail at start, not silently keep a failed load.
  if (typeof exchange.loadMarkets !== "function") throw new Error("ccxt no longer exposes loadMarkets; a failed market load could not be retried");
  const own = exchange.loadMarkets.bind(exchange);
  let failed = false;
  exchange.loadMarkets = async (reload = false, params = {}) => {
    try {
      const markets = await own(reload || failed, params);
      failed = false;
      return markets;
    } catch (err) {
      failed = true;
      throw err;
    }
  };
  return exchange;
}
