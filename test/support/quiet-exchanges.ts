import type { OhlcvExchange } from "../../src/feeds/live/ccxt-candle-source.js";
import type { DerivativesExchange } from "../../src/feeds/live/ccxt-derivatives.js";

/**
 * Stand-ins for ccxt Binance spot and futures in live tests about other providers: no bars, no
 * funding, a constant open interest; openLive never reaches for the internet with them.
 */
export const noBars: OhlcvExchange = { fetchOHLCV: async () => [] };
export const noDerivatives: DerivativesExchange = {
  fetchFundingRateHistory: async () => [],
  fetchOpenInterest: async () => ({ openInterestAmount: 1, timestamp: Date.now() }),
};
