import ccxt from "ccxt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CcxtDerivativesProvider } from "../../../../src/feeds/live/ccxt-derivatives.js";
import { ProviderError } from "../../../../src/feeds/live/provider-error.js";
import { FakeProviderServer, type FakeAnswer } from "./fake-provider-server.js";

const T0 = Date.parse("2026-03-23T08:00:00Z");

/** Binance USDT-M's documented GET /fapi/v1/exchangeInfo, reduced to BTCUSDT perpetual. */
const exchangeInfo = {
  timezone: "UTC",
  serverTime: T0,
  rateLimits: [],
  exchangeFilters: [],
  assets: [],
  symbols: [
    {
      symbol: "BTCUSDT",
      pair: "BTCUSDT",
      contractType: "PERPETUAL",
      deliveryDate: 4133404800000,
      onboardDate: 1569398400000,
      status: "TRADING",
      baseAsset: "BTC",
      quoteAsset: "USDT",
      marginAsset: "USDT",
      pricePrecision: 2,
      quantityPrecision: 3,
      baseAssetPrecision: 8,
      quotePrecision: 8,
      underlyingType: "COIN",
      settlePlan: 0,
      triggerProtect: "0.0500",
      filters: [
        { filterType: "PRICE_FILTER", minPrice: "556.80", maxPrice: "4529764", tickSize: "0.10" },
        { filterType: "LOT_SIZE", minQty: "0.001", maxQty: "1000", stepSize: "0.001" },
        { filterType: "MARKET_LOT_SIZE", minQty: "0.001", maxQty: "120", stepSize: "0.001" },
      ],
      orderTypes: ["LIMIT", "MARKET"],
      timeInForce: ["GTC", "IOC"],
    },
  ],
};

describe("CcxtDerivativesProvider (ccxt binanceusdm) against a local HTTP server", () => {
  let server: FakeProviderServer;
  let funding: FakeAnswer;
  const provider = () => {
    const exchange = new ccxt.binanceusdm({ enableRateLimit: false, timeout: 2000 });
    const api = exchange.urls["api"] as Record<string, string>;
    api["fapiPublic"] = `${server.url}/fapi/v1`;
    return new CcxtDerivativesProvider("binance", exchange);
  };

  beforeAll(async () => {
    server = await FakeProviderServer.start();
    server.route((path) => {
      if (path.startsWith("/fapi/v1/exchangeInfo")) return { body: exchangeInfo };
      if (path.startsWith("/fapi/v1/openInterest")) return { body: { openInterest: "81234.567", symbol: "BTCUSDT", time: T0 + 5000 } };
      return funding;
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it("reads the last settled funding rate (% per 8 h) and open interest (BTC)", async () => {
    funding = {
      body: [
        { symbol: "BTCUSDT", fundingRate: "0.00010000", fundingTime: T0 - 8 * 3_600_000, markPrice: "68000.1" },
        { symbol: "BTCUSDT", fundingRate: "-0.00002079", fundingTime: T0, markPrice: "67874.2" },
      ],
    };
    const readings = await provider().poll();
    expect(readings).toHaveLength(2);
    expect(readings[0]).toMatchObject({ key: "BTC_FUNDING_RATE", observedAt: T0, source: "binance" });
    expect(readings[0]?.value).toBeCloseTo(-0.002079, 12);
    expect(readings[1]).toEqual({ key: "BTC_OPEN_INTEREST", value: 81234.567, observedAt: T0 + 5000, source: "binance" });
  }, 20_000);

  it("maps Binance's 429 to rate_limited and an empty history to malformed", async () => {
    funding = { status: 429, body: { code: -1003, msg: "Too many requests" } };
    const limited = await provider().poll().catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(ProviderError);
    expect((limited as ProviderError).kind).toBe("rate_limited");
    funding = { body: [] };
    const empty = await provider().poll().catch((e: unknown) => e);
    expect((empty as ProviderError).kind).toBe("malformed");
  }, 20_000);
});
