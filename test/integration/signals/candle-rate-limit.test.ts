import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/env.js";
import { openMarket, type Market, type SharedLiveLog } from "../../../src/composition/open-market.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import type { Logger } from "../../../src/logging/logger.js";
import { metricsRegistry } from "../../../src/observability/metrics.js";
import type { OhlcvExchange } from "../../../src/feeds/live/ccxt-candle-source.js";
import type { DerivativesExchange } from "../../../src/feeds/live/ccxt-derivatives.js";
import { binanceHourlyKline, binanceSpotExchangeInfo, localBinanceSpot } from "../../support/binance-spot-answers.js";
import { quietLiquidations } from "../../support/quiet-liquidations.js";
import { FakeProviderServer, type FakeAnswer } from "../../unit/feeds/live/fake-provider-server.js";
import { captureLogger } from "../../support/capture-logger.js";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import { freshStoreUrl, type StoreKind } from "../../support/service.js";

const H = 3_600_000;

/**
 * The live market with `spot` for candles, or else the default ccxt binance pointed at `server`;
 * every other provider's URL is `server`, which answers 503 to them. `shared`: the store, as
 * build-service.ts passes it.
 */
async function openLiveMarket(clock: ManualClock, server: FakeProviderServer, spot: OhlcvExchange | undefined, logger?: Logger, shared?: SharedLiveLog): Promise<Market> {
  const futures: DerivativesExchange = {
    fetchFundingRateHistory: async () => [],
    fetchOpenInterest: async () => ({ openInterestAmount: 1, timestamp: clock.now() }),
  };
  const urls = { alternativeMe: server.url, coingecko: server.url, coinmetrics: server.url, defillama: server.url, deribit: server.url, fred: server.url, yahoo: server.url, solanaRpc: server.url, subtensorRpc: server.url };
  return openMarket(loadConfig({ MARKET_FEED: "live", LOG_LEVEL: "silent" }), clock, undefined, {
    baseUrls: urls,
    ...(spot === undefined ? { binanceSpotUrl: server.url } : { spot }),
    futures,
    liquidations: quietLiquidations(),
    resilience: { retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 20 }, breaker: { failureThreshold: 5, cooldownMs: 60_000 } },
  }, shared, logger);
}

/** Binance's spot REST on the local server: hourly klines, or its documented ban (418, Retry-After in seconds) while `banned()`. */
function binanceBanning(clock: ManualClock, banned: () => boolean) {
  return (path: string): FakeAnswer => {
    if (path.startsWith("/api/v3/exchangeInfo")) return { body: binanceSpotExchangeInfo(clock.now()) };
    if (!path.startsWith("/api/v3/klines")) return { status: 503, body: {} };
    if (banned()) return { status: 418, headers: { "Retry-After": "7200" }, body: { code: -1003, msg: "Way too much request weight used; IP banned until later." } };
    const hour = Math.floor(clock.now() / H) * H;
    return { body: Array.from({ length: 5 }, (_, i) => binanceHourlyKline(hour - (4 - i) * H, 68_000 + i)) };
  };
}

/** ccxt's class for Binance's 418/429 answers (ccxt keeps no status; the class name says it). */
class DDoSProtection extends Error {
  override name = "DDoSProtection";
}

describe("the live candle pollers when the exchange rate-limits", () => {
  let server: FakeProviderServer;
  let market: Market;
  const clock = new ManualClock(Date.now());
  let throttled = true;
  let ohlcvCalls = 0;

  beforeAll(async () => {
    server = await FakeProviderServer.start();
    server.route(() => ({ status: 503, body: {} }));
    const spot: OhlcvExchange = {
      async fetchOHLCV(_symbol: string, tf?: string, since?: number) {
        // Hourly bars only: this suite polls the candle pollers, never BTC's daily closes.
        if (tf !== "1h") throw new Error(`unexpected timeframe ${String(tf)}`);
        ohlcvCalls++;
        if (throttled) throw new DDoSProtection("binance 418 I'm a teapot: IP banned until later");
        const hour = Math.floor(clock.now() / H) * H;
        return Array.from({ length: 5 }, (_, i) => hour - (4 - i) * H)
          .filter((t) => since === undefined || t >= since)
          .map((t) => [t, 100, 101, 99, 100.5, 10]);
      },
    };
    market = await openLiveMarket(clock, server, spot);
  });
  afterAll(async () => {
    await market?.stop();
    await server?.close();
  });

  it("leaves the exchange alone for the cool-down after a rate limit, then tries once and recovers", async () => {
    const btc = market.pollers.find((p) => p.id === "candles:BTC")!;
    const first = await btc.poll();
    expect(!first.ok && first.error.kind).toBe("rate_limited");
    const callsAfterFirst = ohlcvCalls;
    expect(callsAfterFirst).toBe(2); // the poll and its one retry
    // The next minute's firing, inside the 60 s cool-down, is refused without a call to the exchange.
    clock.set(clock.now() + 30_000);
    const during = await btc.poll();
    expect(!during.ok && during.error.kind).toBe("circuit_open");
    expect(ohlcvCalls).toBe(callsAfterFirst);
    throttled = false;
    clock.set(clock.now() + 31_000);
    const after = await btc.poll();
    expect(after.ok).toBe(true);
    expect(ohlcvCalls).toBe(callsAfterFirst + 1);
  });
});

describe("the live candle poller when Binance bans the IP (ccxt binance on a local server)", () => {
  let server: FakeProviderServer;
  let market: Market;
  const clock = new ManualClock(Date.now());
  let banned = true;
  const log = captureLogger("warn");
  /** What Prometheus reads for a poller's hold: Unix seconds, 0 when none. */
  const holdGauge = async (poller: string) =>
    (await metricsRegistry.getSingleMetric("mis_live_provider_hold_until_seconds")?.get())?.values.find((v) => v.labels["poller"] === poller)?.value;
  const klineCalls = () => server.requests.filter((r) => r.startsWith("/api/v3/klines")).length;

  beforeAll(async () => {
    server = await FakeProviderServer.start();
    server.route(binanceBanning(clock, () => banned));
    // The exchange as open-market.ts builds it, pointed at the local server.
    market = await openLiveMarket(clock, server, localBinanceSpot(server.url, clock), log.logger);
  });
  afterAll(async () => {
    await market?.stop();
    await server?.close();
  });

  it("stays away for the two hours the ban lasts, not the one-minute cool-down, then fetches again", async () => {
    const btc = market.pollers.find((p) => p.id === "candles:BTC")!;
    const bannedAt = clock.now();
    const first = await btc.poll();
    expect(!first.ok && first.error.kind).toBe("rate_limited");
    // A two-hour ask ends the poll at once: retrying inside it is what makes Binance lengthen a ban.
    expect(klineCalls()).toBe(1);
    expect(btc.providerHoldUntil()).toBe(bannedAt + 2 * H);
    // The ban is on the IP: ETH's poller, which shares the exchange, is refused without a call and holds to the same end.
    clock.set(bannedAt + 10_000);
    const eth = market.pollers.find((p) => p.id === "candles:ETH")!;
    const ethPoll = await eth.poll();
    expect(!ethPoll.ok && ethPoll.error.kind).toBe("rate_limited");
    expect(eth.providerHoldUntil()).toBe(bannedAt + 2 * H);
    // So are BTC's daily closes (the BTC side of the macro correlations), which come from the same exchange.
    const closes = market.pollers.find((p) => p.id === "daily-closes:BTC")!;
    const closesPoll = await closes.poll();
    expect(!closesPoll.ok && closesPoll.error.kind).toBe("rate_limited");
    expect(closes.providerHoldUntil()).toBe(bannedAt + 2 * H);
    expect(klineCalls()).toBe(1);
    // Every minute's firing through the ban is refused without a call; the cool-down alone would have let the second through.
    for (const minutes of [1.5, 30, 119]) {
      clock.set(bannedAt + minutes * 60_000);
      const during = await btc.poll();
      expect(!during.ok && during.error.kind, `${minutes} min into the ban`).toBe("circuit_open");
    }
    expect(klineCalls()).toBe(1);
    // The operator sees the ban: its end on /metrics, and one warning per poller with it, not one per refused firing.
    expect(await holdGauge("candles:BTC")).toBe(Math.ceil((bannedAt + 2 * H) / 1000));
    expect(await holdGauge("candles:ETH")).toBe(Math.ceil((bannedAt + 2 * H) / 1000));
    const asked = log.lines.filter((l) => l["msg"] === "live source asked us to wait: candles:BTC");
    expect(asked.map((l) => l["until"])).toEqual([new Date(bannedAt + 2 * H).toISOString()]);
    banned = false;
    clock.set(bannedAt + 2 * H + 1000);
    const after = await btc.poll();
    expect(after.ok).toBe(true);
    expect(klineCalls()).toBe(2);
    expect(btc.providerHoldUntil()).toBeNull();
    expect(await holdGauge("candles:BTC")).toBe(0);
  }, 30_000);
});

describe.each<StoreKind>(["sqlite", "mongodb"])("a Binance ban heard by one replica, on %s", (kind) => {
  let server: FakeProviderServer;
  let store: Store;
  const replicas: Market[] = [];
  const clock = new ManualClock(Date.now());
  let banned = true;
  const klineCalls = () => server.requests.filter((r) => r.startsWith("/api/v3/klines")).length;

  /** A replica's live market as build-service.ts opens it: the default ccxt binance, the store shared. */
  const openReplica = () => openLiveMarket(clock, server, undefined, undefined, { log: store.liveObservations, warn: () => undefined, holds: store.providerHolds });

  beforeAll(async () => {
    store = await openStore(freshStoreUrl(kind, "exchangehold"));
    server = await FakeProviderServer.start();
    server.route(binanceBanning(clock, () => banned));
    replicas.push(await openReplica(), await openReplica());
  });
  afterAll(async () => {
    for (const m of replicas) await m.stop();
    await server?.close();
    await store?.close();
  });

  it("is waited out by the other replica's pollers, which share the IP, without a call; both call again after it", async () => {
    const [a, b] = replicas as [Market, Market];
    const bannedAt = clock.now();
    const heard = await a.pollers.find((p) => p.id === "candles:BTC")!.poll();
    expect(!heard.ok && heard.error.kind).toBe("rate_limited");
    expect(klineCalls()).toBe(1);
    expect(await store.providerHolds.until("binance")).toBe(bannedAt + 2 * H);
    // Replica B never heard the ban: its own exchange object reads the hold from the store.
    clock.set(bannedAt + 60_000);
    for (const asset of ["ETH", "BTC"]) {
      const poller = b.pollers.find((p) => p.id === `candles:${asset}`)!;
      const poll = await poller.poll();
      expect(!poll.ok && poll.error.kind, `replica B, candles:${asset}`).toBe("rate_limited");
      expect(poller.providerHoldUntil()).toBe(bannedAt + 2 * H);
    }
    expect(klineCalls()).toBe(1);
    // A shorter ask heard later never cuts the stored ban short.
    await store.providerHolds.extend("binance", bannedAt + H);
    expect(await store.providerHolds.until("binance")).toBe(bannedAt + 2 * H);
    // Other hosts keep their own limits: Binance's futures host is not held by a spot ban.
    expect(await store.providerHolds.until("binanceusdm")).toBe(0);
    banned = false;
    clock.set(bannedAt + 2 * H + 1000);
    // Replica B's markets were never loaded (its first request fell in the ban): they load now.
    for (const m of [a, b]) {
      const after = await m.pollers.find((p) => p.id === "candles:SOL")!.poll();
      expect(after.ok ? "fetched" : after.error.kind).toBe("fetched");
    }
    expect(klineCalls()).toBe(3);
  }, 30_000);
});
