import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CcxtCandleSource } from "../../../../src/feeds/live/ccxt-candle-source.js";
import { CcxtOrderBookDepth } from "../../../../src/feeds/live/ccxt-order-book.js";
import { ProviderError } from "../../../../src/feeds/live/provider-error.js";
import { ManualClock } from "../../../../src/runtime/clocks/clock.js";
import { binanceHourlyKline, binanceSpotExchangeInfo, localBinanceSpot } from "../../../support/binance-spot-answers.js";
import { FakeProviderServer } from "./fake-provider-server.js";

const T0 = Date.parse("2026-03-23T00:00:00Z");
const depth = { lastUpdateId: 1027024, bids: [["68000.00", "2.5"]], asks: [["68001.00", "3.0"]] };

describe("a failed load of an exchange's markets is tried again (ccxt binance on a local server)", () => {
  let server: FakeProviderServer;
  /** What exchangeInfo answers: 503, a 200 that lists nothing (a maintenance page), or the markets. */
  let markets: "down" | "empty" | "up" = "down";
  const calls = (prefix: string) => server.requests.filter((r) => r.startsWith(prefix)).length;

  beforeAll(async () => {
    server = await FakeProviderServer.start();
    server.route((path) => {
      if (path.startsWith("/api/v3/exchangeInfo")) return markets === "up" ? { body: binanceSpotExchangeInfo(T0) } : markets === "empty" ? { body: {} } : { status: 503, body: {} };
      if (path.startsWith("/api/v3/depth")) return { body: depth };
      return { body: [binanceHourlyKline(T0, 68_000)] };
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it("recovers on the next call once the exchange answers, instead of failing with the first error until a restart", async () => {
    const exchange = localBinanceSpot(server.url, new ManualClock(T0));
    const candles = new CcxtCandleSource("binance", exchange);
    const book = new CcxtOrderBookDepth("binance", exchange);
    for (let i = 0; i < 2; i++) {
      // Each failing call asks the exchange again (ccxt alone would send nothing the second time).
      const failed = await candles.fetchHourly("BTC", T0, 1).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(ProviderError);
      expect((failed as ProviderError).retryable).toBe(true);
      expect(calls("/api/v3/exchangeInfo")).toBe(i + 1);
    }
    expect(calls("/api/v3/klines")).toBe(0);
    // A 200 that lists no markets: ccxt would keep it as loaded and fail every symbol for good.
    markets = "empty";
    const empty = await candles.fetchHourly("BTC", T0, 1).catch((e: unknown) => e);
    expect([(empty as ProviderError).kind, (empty as ProviderError).message]).toEqual(["malformed", expect.stringMatching(/listed no markets/)]);
    expect(calls("/api/v3/exchangeInfo")).toBe(3);
    markets = "up";
    // Two callers at once after the failure share one reload.
    const [bars, usd] = await Promise.all([candles.fetchHourly("BTC", T0, 1), book.depthUsd("BTC")]);
    expect(bars).toHaveLength(1);
    expect(usd).toBeGreaterThan(0);
    expect(calls("/api/v3/exchangeInfo")).toBe(4);
    // Loaded once, the markets are kept: later calls send only their own request.
    expect(await candles.fetchHourly("BTC", T0, 1)).toHaveLength(1);
    expect(calls("/api/v3/exchangeInfo")).toBe(4);
    expect(calls("/api/v3/klines")).toBe(2);
  });
});
