import ccxt from "ccxt";
import type { Clock } from "../../src/runtime/clocks/clock.js";
import { guardCcxtExchange } from "../../src/feeds/live/ccxt-guard.js";
import type { SharedExchangeHold } from "../../src/feeds/live/ccxt-retry-after.js";

const H = 3_600_000;
const DAY = 86_400_000;

/** A real ccxt binance, guarded as open-market.ts builds it, pointed at a local server speaking Binance's REST. */
export function localBinanceSpot(serverUrl: string, clock: Clock, shared?: SharedExchangeHold): InstanceType<typeof ccxt.binance> {
  const exchange = guardCcxtExchange(new ccxt.binance({ options: { fetchMarkets: { types: ["spot"] } }, enableRateLimit: false, timeout: 2000 }), clock, shared);
  (exchange.urls["api"] as Record<string, string>)["public"] = `${serverUrl}/api/v3`;
  return exchange;
}

/** Binance's documented GET /api/v3/exchangeInfo, reduced to the four spot markets the service reads. */
export function binanceSpotExchangeInfo(serverTime: number) {
  return {
    timezone: "UTC",
    serverTime,
    rateLimits: [],
    exchangeFilters: [],
    symbols: ["BTC", "ETH", "SOL", "TAO"].map((base) => ({
      symbol: `${base}USDT`,
      status: "TRADING",
      baseAsset: base,
      baseAssetPrecision: 8,
      quoteAsset: "USDT",
      quotePrecision: 8,
      quoteAssetPrecision: 8,
      orderTypes: ["LIMIT", "MARKET"],
      icebergAllowed: true,
      ocoAllowed: true,
      isSpotTradingAllowed: true,
      isMarginTradingAllowed: true,
      filters: [
        { filterType: "PRICE_FILTER", minPrice: "0.01", maxPrice: "1000000.00", tickSize: "0.01" },
        { filterType: "LOT_SIZE", minQty: "0.00001", maxQty: "9000.00", stepSize: "0.00001" },
      ],
      permissions: ["SPOT"],
      permissionSets: [["SPOT"]],
    })),
  };
}

/** Binance's documented GET /api/v3/klines row for the hour opening at `openTime`: strings for prices and volumes. */
export function binanceHourlyKline(openTime: number, close: number) {
  return [openTime, String(close), String(close + 100), String(close - 100), String(close), "123.5", openTime + H - 1, "8400000", 1000, "60", "4000000", "0"];
}

/** The same row for the UTC day opening at `openTime` (interval=1d). */
export function binanceDailyKline(openTime: number, close: number) {
  return [openTime, String(close), String(close * 1.01), String(close * 0.99), String(close), "20123.5", openTime + DAY - 1, "1400000000", 2000000, "10000", "700000000", "0"];
}
