import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../../../src/runtime/clocks/clock.js";
import { DefiLlamaStablecoinProvider } from "../../../../src/feeds/live/defillama.js";
import { DeribitProvider } from "../../../../src/feeds/live/deribit.js";
import { ProviderError } from "../../../../src/feeds/live/provider-error.js";
import { FakeProviderServer } from "./fake-provider-server.js";

const H = 3_600_000;
const DAY = 24 * H;
const NOW = Date.parse("2026-03-23T10:20:00Z");

/** Deribit answers both endpoints from one host; route by path. */
function deribitAnswer(path: string) {
  if (path.includes("get_volatility_index_data")) {
    return {
      jsonrpc: "2.0",
      result: {
        data: [
          [NOW - 2 * H - 20 * 60_000, 50, 51, 49, 50.5],
          [NOW - H - 20 * 60_000, 50.5, 52, 50, 51.25],
        ],
        continuation: null,
      },
      usIn: 1,
      usOut: 2,
      usDiff: 1,
      testnet: false,
    };
  }
  return {
    jsonrpc: "2.0",
    result: [
      { instrument_name: "BTC-27MAR26-80000-C", open_interest: 300, creation_timestamp: NOW - 1000, volume: 1 },
      { instrument_name: "BTC-27MAR26-60000-P", open_interest: 150, creation_timestamp: NOW - 2000, volume: 1 },
      { instrument_name: "BTC-27MAR26-70000-C", open_interest: 100, creation_timestamp: NOW - 3000, volume: 1 },
      { instrument_name: "BTC-27MAR26-65000-P", open_interest: 50, creation_timestamp: NOW - 4000, volume: 1 },
    ],
  };
}

describe("DeribitProvider on a local HTTP server", () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await FakeProviderServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it("derives DVOL, put/call ratio and options OI from the documented payloads", async () => {
    server.route((path) => ({ body: deribitAnswer(path) }));
    const readings = await new DeribitProvider(new ManualClock(NOW), server.url).poll();
    expect(readings).toEqual([
      { key: "DVOL", value: 51.25, observedAt: NOW - 20 * 60_000, source: "deribit" },
      { key: "OPTIONS_OI", value: 600, observedAt: NOW - 1000, source: "deribit" },
      { key: "PUT_CALL_RATIO", value: 0.5, observedAt: NOW - 1000, source: "deribit" },
    ]);
    expect(server.requests.some((r) => r.includes("get_volatility_index_data?currency=BTC"))).toBe(true);
    expect(server.requests.some((r) => r.includes("get_book_summary_by_currency?currency=BTC&kind=option"))).toBe(true);
  });

  it("turns Deribit's JSON-RPC error answer into a non-retryable http error", async () => {
    server.script({ status: 400, body: { jsonrpc: "2.0", error: { message: "Invalid params", code: -32602 } } });
    const err = await new DeribitProvider(new ManualClock(NOW), server.url).poll().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).retryable).toBe(false);
  });

  it("rejects an instrument list that is not the documented shape", async () => {
    server.route((path) =>
      path.includes("get_volatility_index_data")
        ? { body: deribitAnswer(path) }
        : { body: { jsonrpc: "2.0", result: [{ instrument_name: 7 }] } },
    );
    const err = await new DeribitProvider(new ManualClock(NOW), server.url).poll().catch((e: unknown) => e);
    expect((err as ProviderError).kind).toBe("malformed");
  });
});

describe("DefiLlamaStablecoinProvider on a local HTTP server", () => {
  let server: FakeProviderServer;
  beforeAll(async () => {
    server = await FakeProviderServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  const day = (d: number) => Date.parse("2026-03-01T00:00:00Z") + d * DAY;
  const point = (d: number, usd: number) => ({
    date: String(day(d) / 1000),
    totalCirculating: { peggedUSD: usd },
    totalCirculatingUSD: { peggedUSD: usd, peggedEUR: 1e8 },
  });

  it("reports the 7-day change of USD-pegged supply in USD mn, a finished day's at that day's end as replay does", async () => {
    server.script({ body: Array.from({ length: 10 }, (_, d) => point(d, 300e9 + d * 100e6)) });
    const readings = await new DefiLlamaStablecoinProvider(new ManualClock(day(11) + 3_600_000), server.url).poll();
    expect(readings).toHaveLength(1);
    expect(readings[0]).toMatchObject({ key: "STABLECOIN_MINT", observedAt: day(10), source: "defillama" });
    expect(readings[0]?.value).toBeCloseTo(700, 6);
    expect(server.requests).toEqual(["/stablecoincharts/all"]);
  });

  it("stamps today's running value at the time it was read, not at a day's end still to come", async () => {
    server.script({ body: Array.from({ length: 10 }, (_, d) => point(d, 300e9 + d * 100e6)) });
    const now = day(9) + 15 * 3_600_000;
    const readings = await new DefiLlamaStablecoinProvider(new ManualClock(now), server.url).poll();
    expect(readings[0]?.observedAt).toBe(now);
  });

  it("reports nothing when the week-ago point is missing", async () => {
    server.script({ body: [point(0, 1e9), point(3, 2e9)] });
    expect(await new DefiLlamaStablecoinProvider(new ManualClock(day(11)), server.url).poll()).toEqual([]);
  });
});
