const H = 3_600_000;

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
