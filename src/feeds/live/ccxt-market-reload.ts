/** What this module sets on a ccxt exchange: the step every unified call takes before its request. */
export interface MarketLoadHook {
  loadMarkets(reload?: boolean, params?: object): Promise<unknown>;
  /** What ccxt loaded; some calls (binance's fetchOHLCV) load only while it is undefined. */
  markets: unknown;
}

/** A load that listed no markets: ccxt keeps it as loaded, and every call then fails on its symbol. */
export class NoMarketsError extends Error {
  constructor() {
    super("the exchange listed no markets (an answer that is not its markets list); loaded again by the next call");
    this.name = "NoMarketsError";
  }
}

/**
 * Makes a failed load of an exchange's markets be tried again by the next call.
 *
 * ccxt loads an exchange's markets once, on the first unified call, and keeps the promise of that
 * load; when it rejects (the exchange down at start, a 5xx, a timeout, a ban) every later call
 * returns the same rejection without sending a request, until the process restarts, because ccxt
 * reloads only when asked to (`loadMarkets(true)`). Measured on the ccxt of package-lock.json: a
 * binance whose first exchangeInfo answered 503 failed its next calls with that 503 while the
 * server answered 200, sending nothing. A 200 that is not a markets list (a maintenance page,
 * `{}`) is worse: ccxt reads it as no markets, keeps that as loaded, and every call then fails on
 * "does not have market symbol", never asking again (binance's fetchOHLCV loads only while
 * `markets` is undefined). Such a load counts as failed here (NoMarketsError, read as
 * `malformed`) and its empty list is dropped. After a failed load the next call asks for a reload;
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
      if (markets === null || typeof markets !== "object" || Object.keys(markets).length === 0) {
        exchange.markets = undefined;
        throw new NoMarketsError();
      }
      failed = false;
      return markets;
    } catch (err) {
      failed = true;
      throw err;
    }
  };
  return exchange;
}
