import type { LiquidationsExchange } from "../../src/feeds/live/ccxt-liquidations.js";

/**
 * A stand-in for ccxt gate in the service-level live tests (the adapter itself is tested against
 * the real ccxt gate on a local server, test/unit/feeds/live/ccxt-liquidations.test.ts): Gate's
 * BTC_USDT perpetual with no liquidations in any hour, so openLive never reaches for the internet.
 */
export function quietLiquidations(calls?: { liquidations: number }): LiquidationsExchange {
  return {
    loadMarkets: async () => ({}),
    market: () => ({ id: "BTC_USDT", linear: true, contractSize: 0.0001 }),
    fetchLiquidations: async () => {
      if (calls) calls.liquidations++;
      return [];
    },
  };
}
