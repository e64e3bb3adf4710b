import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CcxtCandleSource } from "../../../../src/feeds/live/ccxt-candle-source.js";
import { CcxtOrderBookDepth } from "../../../../src/feeds/live/ccxt-order-book.js";
import { MAX_PROVIDER_HOLD_MS } from "../../../../src/feeds/live/circuit-breaker.js";
import { ProviderError } from "../../../../src/feeds/live/provider-error.js";
import { ManualClock } from "../../../../src/runtime/clocks/clock.js";
import { binanceHourlyKline, binanceSpotExchangeInfo, localBinanceSpot } from "../../../support/binance-spot-answers.js";
import { FakeProviderServer, type FakeAnswer } from "./fake-provider-server.js";

const H = 3_600_000;
const T0 = Date.parse("2026-03-23T00:00:00Z");
const BANNED = { code: -1003, msg: "Way too much request weight used; IP banned until 1774231200000." };

/** Binance's documented GET /api/v3/depth: price and quantity strings, best first. */
const depth = { lastUpdateId: 1027024, bids: [["68000.00", "2.5"]], asks: [["68001.00", "3.0"]] };

describe("an exchange's ban holds every call this process makes to it (ccxt binance on a local server)", () => {
  let server: FakeProviderServer;
  let klines: FakeAnswer;
  const depthCalls = () => server.requests.filter((r) => r.startsWith("/api/v3/depth")).length;
  /** One exchange shared by the candle source and the order-book probe, as open-market.ts shares `spot`. */
  const shared = (wall: ManualClock) => {
    const exchange = localBinanceSpot(server.url, wall);
    return { candles: new CcxtCandleSource("binance", exchange), book: new CcxtOrderBookDepth("binance", exchange) };
  };

  beforeAll(async () => {
    server = await FakeProviderServer.start();
    server.route((path) => {
      if (path.startsWith("/api/v3/exchangeInfo")) return { body: binanceSpotExchangeInfo(T0) };
      if (path.startsWith("/api/v3/depth")) return { body: depth };
      return klines;
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it("refuses the order-book probe without a request while a ban the candle poll heard lasts, then calls again", async () => {
    const wall = new ManualClock(T0);
    const { candles, book } = shared(wall);
    expect(await book.depthUsd("BTC")).toBeGreaterThan(0);
    expect(depthCalls()).toBe(1);

    klines = { status: 418, body: BANNED, headers: { "Retry-After": "7200" } };
    const ban = await candles.fetchHourly("BTC", null, 2).catch((e: unknown) => e);
    expect([(ban as ProviderError).kind, (ban as ProviderError).retryAfterMs]).toEqual(["rate_limited", 2 * H]);

    wall.set(T0 + 30 * 60_000);
    const held = await book.depthUsd("BTC").catch((e: unknown) => e);
    expect(held).toBeInstanceOf(ProviderError);
    // What is left of the ban, so the caller's breaker holds until the same moment.
    expect([(held as ProviderError).kind, (held as ProviderError).retryAfterMs]).toEqual(["rate_limited", 90 * 60_000]);
    expect(depthCalls()).toBe(1);

    klines = { body: [binanceHourlyKline(T0, 68_000)] };
    wall.set(T0 + 2 * H + 1);
    expect(await book.depthUsd("BTC")).toBeGreaterThan(0);
    expect(await candles.fetchHourly("BTC", T0, 1)).toHaveLength(1);
    expect(depthCalls()).toBe(2);
  }, 20_000);

  it("holds the process for three days at most, as the breaker does, whatever the exchange asks", async () => {
    const wall = new ManualClock(T0);
    const { candles, book } = shared(wall);
    klines = { status: 418, body: BANNED, headers: { "Retry-After": "315360000" } };
    await candles.fetchHourly("BTC", null, 2).catch(() => undefined);
    wall.set(T0 + MAX_PROVIDER_HOLD_MS - 1000);
    const held = await book.depthUsd("BTC").catch((e: unknown) => e);
    expect([(held as ProviderError).kind, (held as ProviderError).retryAfterMs]).toEqual(["rate_limited", 1000]);
    const before = depthCalls();
    wall.set(T0 + MAX_PROVIDER_HOLD_MS);
    expect(await book.depthUsd("BTC")).toBeGreaterThan(0);
    expect(depthCalls()).toBe(before + 1);
  }, 20_000);

  it("holds nothing after a 429 without Retry-After: the next call goes out", async () => {
    const wall = new ManualClock(T0);
    const { candles, book } = shared(wall);
    klines = { status: 429, body: { code: -1003, msg: "Too many requests." } };
    const limited = await candles.fetchHourly("BTC", null, 2).catch((e: unknown) => e);
    expect([(limited as ProviderError).kind, (limited as ProviderError).retryAfterMs]).toEqual(["rate_limited", undefined]);
    const before = depthCalls();
    expect(await book.depthUsd("BTC")).toBeGreaterThan(0);
    expect(depthCalls()).toBe(before + 1);
  }, 20_000);
  it("keeps this process's own hold, and says so, when the store shared with the other replicas cannot be reached", async () => {
    const wall = new ManualClock(T0);
    const warnings: string[] = [];
    const down = async (): Promise<never> => {
      throw new Error("store unreachable");
    };
    const exchange = localBinanceSpot(server.url, wall, { holds: { until: down, extend: down }, provider: "binance", warn: (message) => warnings.push(message) });
    const candles = new CcxtCandleSource("binance", exchange);
    const book = new CcxtOrderBookDepth("binance", exchange);
    const before = depthCalls();
    klines = { status: 418, body: BANNED, headers: { "Retry-After": "7200" } };
    const ban = await candles.fetchHourly("BTC", null, 2).catch((e: unknown) => e);
    expect((ban as ProviderError).kind).toBe("rate_limited");
    wall.set(T0 + 60_000);
    const held = await book.depthUsd("BTC").catch((e: unknown) => e);
    expect([(held as ProviderError).kind, (held as ProviderError).retryAfterMs]).toEqual(["rate_limited", 2 * H - 60_000]);
    expect(depthCalls()).toBe(before);
    expect(warnings).toContain("the hold binance asked for could not be stored; only this process holds off");
    expect(warnings).toContain("the store's hold on binance could not be read; this process's own applies");
  });
});
