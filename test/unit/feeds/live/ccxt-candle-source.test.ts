import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import ccxt from "ccxt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { capCcxtBodies } from "../../../../src/feeds/live/ccxt-body-cap.js";
import { heedCcxtRetryAfter } from "../../../../src/feeds/live/ccxt-retry-after.js";
import { CcxtCandleSource } from "../../../../src/feeds/live/ccxt-candle-source.js";
import { ProviderError } from "../../../../src/feeds/live/provider-error.js";
import { ManualClock } from "../../../../src/runtime/clocks/clock.js";
import { binanceSpotExchangeInfo } from "../../../support/binance-spot-answers.js";
import { FakeProviderServer, type FakeAnswer } from "./fake-provider-server.js";

const H = 3_600_000;
const T0 = Date.parse("2026-03-23T00:00:00Z");
const wall = new ManualClock(Date.now());

/** Binance's documented GET /api/v3/klines row: strings for prices and volumes. */
const kline = (i: number) => [
  T0 + i * H,
  String(68000 + i),
  String(68100 + i),
  String(67900 + i),
  String(68050 + i),
  "123.5",
  T0 + (i + 1) * H - 1,
  "8400000",
  1000,
  "60",
  "4000000",
  "0",
];

describe("CcxtCandleSource (ccxt binance) against a local HTTP server", () => {
  let server: FakeProviderServer;
  let klines: FakeAnswer;
  const source = (maxBodyBytes?: number) => {
    const exchange = new ccxt.binance({ options: { fetchMarkets: { types: ["spot"] } }, enableRateLimit: false, timeout: 2000 });
    const api = exchange.urls["api"] as Record<string, string>;
    api["public"] = `${server.url}/api/v3`;
    // As open-market.ts builds it: the exchange's asks to wait are kept with ccxt's errors.
    heedCcxtRetryAfter(exchange, wall);
    return new CcxtCandleSource("binance", maxBodyBytes === undefined ? exchange : capCcxtBodies(exchange, maxBodyBytes));
  };

  beforeAll(async () => {
    server = await FakeProviderServer.start();
    server.route((path) => (path.startsWith("/api/v3/exchangeInfo") ? { body: binanceSpotExchangeInfo(T0) } : klines));
  });
  afterAll(async () => {
    await server.close();
  });

  it("maps Binance klines to candles", async () => {
    klines = { body: [kline(0), kline(1)] };
    const bars = await source().fetchHourly("BTC", T0, 2);
    expect(bars).toEqual([
      { t: T0, o: 68000, h: 68100, l: 67900, c: 68050, v: 123.5 },
      { t: T0 + H, o: 68001, h: 68101, l: 67901, c: 68051, v: 123.5 },
    ]);
    expect(server.requests.find((r) => r.startsWith("/api/v3/klines"))).toContain("symbol=BTCUSDT");
  }, 20_000);

  it("reports a 429 as rate_limited (retryable)", async () => {
    klines = { status: 429, body: { code: -1003, msg: "Too many requests." } };
    const err = await source().fetchHourly("BTC", null, 2).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe("rate_limited");
    expect((err as ProviderError).retryable).toBe(true);
  }, 20_000);

  it("keeps Binance's Retry-After with a 418 ban and a 429, which ccxt's own errors drop", async () => {
    // Binance's documented ban answer: the header gives the seconds until the ban is over.
    const banned = { code: -1003, msg: "Way too much request weight used; IP banned until 1767225600000. Please use WebSocket Streams for live updates to avoid bans." };
    klines = { status: 418, body: banned, headers: { "Retry-After": "7200" } };
    const ban = await source().fetchHourly("BTC", null, 2).catch((e: unknown) => e);
    expect(ban).toBeInstanceOf(ProviderError);
    expect([(ban as ProviderError).kind, (ban as ProviderError).retryAfterMs]).toEqual(["rate_limited", 7_200_000]);
    klines = { status: 429, body: { code: -1003, msg: "Too many requests." }, headers: { "Retry-After": "30" } };
    const limited = await source().fetchHourly("BTC", null, 2).catch((e: unknown) => e);
    expect([(limited as ProviderError).kind, (limited as ProviderError).retryAfterMs]).toEqual(["rate_limited", 30_000]);
  }, 20_000);

  it("leaves the ask unset when a throttling answer carries no Retry-After, and never sets one on other failures", async () => {
    klines = { status: 418, body: { code: -1003, msg: "Way too much request weight used." } };
    const ban = await source().fetchHourly("BTC", null, 2).catch((e: unknown) => e);
    expect([(ban as ProviderError).kind, (ban as ProviderError).retryAfterMs]).toEqual(["rate_limited", undefined]);
    // A 503 with Retry-After is an outage, not an ask aimed at us: the breaker's own cool-down applies.
    klines = { status: 503, body: {}, headers: { "Retry-After": "7200" } };
    const down = await source().fetchHourly("BTC", null, 2).catch((e: unknown) => e);
    expect([(down as ProviderError).kind, (down as ProviderError).retryAfterMs]).toEqual(["network", undefined]);
  }, 20_000);

  it("reports a 5xx as transient and a malformed row as malformed", async () => {
    klines = { status: 503, body: {} };
    const down = await source().fetchHourly("BTC", null, 2).catch((e: unknown) => e);
    expect((down as ProviderError).retryable).toBe(true);
    klines = { body: [[T0, "abc"]] };
    const bad = await source().fetchHourly("BTC", null, 2).catch((e: unknown) => e);
    expect((bad as ProviderError).kind).toBe("malformed");
  }, 20_000);

  it("refuses an answer past the body cap as malformed, and reads one under it, through ccxt's own requests", async () => {
    // 1,000 klines are about 120 KB; exchangeInfo is under 2 KB, so only the klines answer crosses 64 KB.
    klines = { body: Array.from({ length: 1000 }, (_, i) => kline(i)) };
    const err = await source(64 * 1024).fetchHourly("BTC", T0, 1000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect([(err as ProviderError).kind, (err as ProviderError).retryable]).toEqual(["malformed", false]);
    klines = { body: [kline(0), kline(1)] };
    expect(await source(64 * 1024).fetchHourly("BTC", T0, 2)).toHaveLength(2);
  }, 20_000);

  it("asks for answers uncompressed, so the cap counts what is read, not gzip that would inflate past it", async () => {
    // Answers gzip to a client that accepts it: 1,000 klines are ~120 KB raw, far less gzipped.
    const encodings: string[] = [];
    const big = JSON.stringify(Array.from({ length: 1000 }, (_, i) => kline(i)));
    const gz = createServer((req, res) => {
      const accept = String(req.headers["accept-encoding"] ?? "");
      encodings.push(accept);
      const body = req.url?.startsWith("/api/v3/exchangeInfo") ? JSON.stringify(binanceSpotExchangeInfo(T0)) : big;
      res.setHeader("content-type", "application/json");
      if (/gzip/.test(accept)) {
        res.setHeader("content-encoding", "gzip");
        res.end(gzipSync(body));
      } else res.end(body);
    });
    await new Promise<void>((r) => gz.listen(0, "127.0.0.1", r));
    try {
      expect(gzipSync(big).length).toBeLessThan(64 * 1024);
      const exchange = new ccxt.binance({ options: { fetchMarkets: { types: ["spot"] } }, enableRateLimit: false, timeout: 2000 });
      (exchange.urls["api"] as Record<string, string>)["public"] = `http://127.0.0.1:${(gz.address() as AddressInfo).port}/api/v3`;
      const err = await new CcxtCandleSource("binance", capCcxtBodies(exchange, 64 * 1024)).fetchHourly("BTC", T0, 1000).catch((e: unknown) => e);
      expect(encodings.length).toBeGreaterThan(0);
      expect(new Set(encodings)).toEqual(new Set(["identity"]));
      expect((err as ProviderError).kind).toBe("malformed");
    } finally {
      await new Promise<void>((r) => gz.close(() => r()));
    }
  }, 20_000);
  /** A server of Binance's paths whose klines answer is `klines(req, res)`; the markets as documented. */
  async function withServer(klines: (res: ServerResponse) => void, run: (url: string) => Promise<void>): Promise<void> {
    const srv = createServer((req, res) => {
      if (req.url?.startsWith("/api/v3/exchangeInfo")) {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify(binanceSpotExchangeInfo(T0)));
      } else klines(res);
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    try {
      await run(`http://127.0.0.1:${(srv.address() as AddressInfo).port}/api/v3`);
    } finally {
      srv.closeAllConnections();
      await new Promise<void>((r) => srv.close(() => r()));
    }
  }
  const capped = (api: string, maxBodyBytes: number, timeout = 2000) => {
    const exchange = new ccxt.binance({ options: { fetchMarkets: { types: ["spot"] } }, enableRateLimit: false, timeout });
    (exchange.urls["api"] as Record<string, string>)["public"] = api;
    return new CcxtCandleSource("binance", capCcxtBodies(exchange, maxBodyBytes));
  };

  it("counts the inflated bytes of an answer compressed against the ask, and still reads one that fits", async () => {
    // A server (or a proxy) that gzips whatever it is asked: ~120 KB of klines in a few KB of gzip.
    let rows = 1000;
    await withServer(
      (res) => {
        res.setHeader("content-type", "application/json");
        res.setHeader("content-encoding", "gzip");
        res.end(gzipSync(JSON.stringify(Array.from({ length: rows }, (_, i) => kline(i)))));
      },
      async (api) => {
        const err = await capped(api, 64 * 1024).fetchHourly("BTC", T0, 1000).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ProviderError);
        expect([(err as ProviderError).kind, (err as ProviderError).message]).toEqual(["malformed", "binance: response body over the size cap"]);
        rows = 2;
        expect(await capped(api, 64 * 1024).fetchHourly("BTC", T0, 2)).toEqual([
          { t: T0, o: 68000, h: 68100, l: 67900, c: 68050, v: 123.5 },
          { t: T0 + H, o: 68001, h: 68101, l: 67901, c: 68051, v: 123.5 },
        ]);
      },
    );
  }, 20_000);

  it("cuts off an answer whose body drips in, as a timeout, and lets go of its connection", async () => {
    // Headers at once, then a byte every 200 ms: undici's own limit is 300 s between two bytes.
    const closed: boolean[] = [];
    await withServer(
      (res) => {
        res.setHeader("content-type", "application/json");
        res.flushHeaders();
        const drip = setInterval(() => res.write(" "), 200);
        res.once("close", () => {
          clearInterval(drip);
          closed.push(true);
        });
      },
      async (api) => {
        const err = await capped(api, 64 * 1024, 1000).fetchHourly("BTC", T0, 2).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ProviderError);
        expect([(err as ProviderError).kind, (err as ProviderError).retryable]).toEqual(["timeout", true]);
        await vi.waitFor(() => expect(closed).toEqual([true]), { timeout: 5_000 });
      },
    );
  }, 20_000);
});
