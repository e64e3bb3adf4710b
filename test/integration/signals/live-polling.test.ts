import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/env.js";
import { openMarket, type Market } from "../../../src/composition/open-market.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { ActorHostStoppedError } from "../../../src/runtime/actor-host.js";
import { MarketPollerActor, POLL_TURN_BUDGET_MS } from "../../../src/actors/market-poller-actor.js";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import { captureLogger } from "../../support/capture-logger.js";
import { metricsRegistry } from "../../../src/observability/metrics.js";
import type { OhlcvExchange } from "../../../src/feeds/live/ccxt-candle-source.js";
import type { DerivativesExchange } from "../../../src/feeds/live/ccxt-derivatives.js";
import { quietLiquidations } from "../../support/quiet-liquidations.js";
import { FakeProviderServer, type FakeAnswer } from "../../unit/feeds/live/fake-provider-server.js";
import { freshStoreUrl } from "../../support/service.js";
import { TOTAL_ISSUANCE_KEY, TOTAL_NETWORKS_KEY, TOTAL_STAKE_KEY } from "../../../src/feeds/live/subtensor-rpc.js";
import { waitFor } from "../../support/wait-for.js";

const MINUTE = 60_000;
const H = 60 * MINUTE;
const DAY = 24 * H;
/** Deribit's DVOL answers slower than a poll turn waits: its poll finishes in the background. */
const DERIBIT_DELAY_MS = POLL_TURN_BUDGET_MS + 1_500;

/** Documented payload shapes (as in the adapters' own tests); Coin Metrics is down (503). */
function answer(path: string, body: string): FakeAnswer {
  const now = Date.now();
  const today = Math.floor(now / DAY) * DAY;
  if (path.startsWith("/fng/")) return { body: { data: [{ value: "61", value_classification: "Greed", timestamp: String(today / 1000) }], metadata: { error: null } } };
  if (path.startsWith("/api/v3/global")) return { body: { data: { market_cap_percentage: { btc: 58.5 }, updated_at: Math.floor(now / 1000) } } };
  if (path.startsWith("/stablecoincharts/all")) {
    return { body: Array.from({ length: 10 }, (_, d) => ({ date: String((today - (9 - d) * DAY) / 1000), totalCirculatingUSD: { peggedUSD: 250e9 + d * 1e8 } })) };
  }
  if (path.includes("get_volatility_index_data")) {
    return { delayMs: DERIBIT_DELAY_MS, body: { jsonrpc: "2.0", result: { data: [[Math.floor(now / H) * H - H, 50, 51, 49, 50.5]], continuation: null } } };
  }
  if (path.includes("get_book_summary_by_currency")) {
    return { body: { jsonrpc: "2.0", result: [{ instrument_name: "BTC-27MAR27-80000-C", open_interest: 200, creation_timestamp: now }] } };
  }
  if (path.startsWith("/api/v3/coins/categories")) {
    return { body: [{ id: "artificial-intelligence", market_cap_change_24h: -1.5, updated_at: new Date(now).toISOString() }] };
  }
  // Solana JSON-RPC: 60 one-minute samples at 1,000 non-vote tx/s; the stake calls are down.
  if (path === "/" && body.includes("getRecentPerformanceSamples")) {
    const samples = Array.from({ length: 60 }, (_, i) => ({ slot: 1e6 - i * 150, numSlots: 150, numTransactions: 250_000, numNonVoteTransactions: 60_000, samplePeriodSecs: 60 }));
    return { body: { jsonrpc: "2.0", result: samples, id: 1 } };
  }
  // Subtensor storage: 6 M of 8 M TAO staked (75 %), 128 subnets, SCALE little-endian hex.
  if (path === "/" && body.includes("state_getStorage")) {
    const key = (JSON.parse(body) as { params: string[] }).params[0];
    const le = (v: bigint, bytes: number) => `0x${Buffer.from(Array.from({ length: bytes }, (_, i) => Number((v >> BigInt(8 * i)) & 0xffn))).toString("hex")}`;
    const scale = { [TOTAL_STAKE_KEY]: le(6_000_000n * 10n ** 9n, 8), [TOTAL_ISSUANCE_KEY]: le(8_000_000n * 10n ** 9n, 8), [TOTAL_NETWORKS_KEY]: le(128n, 2) }[key ?? ""];
    return { body: { jsonrpc: "2.0", result: scale ?? null, id: 1 } };
  }
  return { status: 503, body: { error: "unavailable" } };
}

/** Counts each ccxt call, answering with a few recent hourly bars (none daily) / the unified funding and OI shapes. */
function exchanges(calls: { ohlcv: number; daily: number; futures: number }): { spot: OhlcvExchange; futures: DerivativesExchange } {
  return {
    spot: {
      async fetchOHLCV(_symbol: string, tf?: string, since?: number) {
        if (tf === "1d") {
          calls.daily++;
          return [];
        }
        calls.ohlcv++;
        const hour = Math.floor(Date.now() / H) * H;
        return Array.from({ length: 30 }, (_, i) => hour - (29 - i) * H)
          .filter((t) => since === undefined || t >= since)
          .map((t, i) => [t, 100 + i, 101 + i, 99 + i, 100.5 + i, 10 + i]);
      },
    },
    futures: {
      async fetchFundingRateHistory() {
        calls.futures++;
        const settled = Math.floor(Date.now() / (8 * H)) * 8 * H;
        return [{ fundingRate: 0.0001, timestamp: settled }];
      },
      async fetchOpenInterest() {
        return { openInterestAmount: 80000, timestamp: Date.now() };
      },
    },
  };
}

describe("live polling runs on MarketPoller actor reminders (local host, local provider servers)", () => {
  let server: FakeProviderServer;
  let store: Store;
  let host: LocalActorHost;
  let market: Market;
  const calls = { ohlcv: 0, daily: 0, futures: 0, liquidations: 0 };
  const clock = new ManualClock(Date.now());
  const log = captureLogger("info");
  const hits = (prefix: string) => server.requests.filter((p) => p.startsWith(prefix)).length;
  const every = (id: string) => market.pollers.find((p) => p.id === id)?.everyMs ?? Number.NaN;

  const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
  let timersBeforeMarket = 0;
  let timersAfterScheduling = 0;

  beforeAll(async () => {
    server = await FakeProviderServer.start();
    server.route(answer);
    timersBeforeMarket = timers();
    const config = loadConfig({ MARKET_FEED: "live", LOG_LEVEL: "silent" });
    market = await openMarket(config, clock, undefined, {
      baseUrls: { alternativeMe: server.url, coingecko: server.url, coinmetrics: server.url, defillama: server.url, deribit: server.url, fred: server.url, yahoo: server.url, solanaRpc: server.url, subtensorRpc: server.url },
      ...exchanges(calls),
      liquidations: quietLiquidations(calls),
      resilience: { retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 20 }, breaker: { failureThreshold: 5, cooldownMs: 60_000 } },
    }, undefined, log.logger);
    store = await openStore(freshStoreUrl("sqlite", "livepoll"));
    host = new LocalActorHost({ store: store.actorState, clock, logger: log.logger, pollIntervalMs: 0 });
    const byId = new Map(market.pollers.map((p) => [p.id, p]));
    host.register(MarketPollerActor, (ctx) => new MarketPollerActor(ctx, byId.get(ctx.id)));
    await host.start();
    for (let round = 0; round < 2; round++) {
      for (const p of market.pollers) await host.proxy(MarketPollerActor, p.id).ensureScheduled();
    }
    timersAfterScheduling = timers();
  });
  afterAll(async () => {
    await host?.shutdown();
    await market?.stop();
    await store?.close();
    await server?.close();
  });

  it("describes its pollers with their periods and starts no timers of its own", async () => {
    expect(market.pollers.map((p) => p.id).sort()).toEqual(
      ["alternative.me", "binance", "candles:BTC", "candles:ETH", "candles:SOL", "candles:TAO", "coingecko", "coinmetrics", "daily-closes:BTC", "defillama", "deribit", "fred", "gate", "yahoo", "solana-tps", "solana-stake", "coingecko-ai-sector", "subtensor"].sort(),
    );
    // A twelfth of the shortest refresh among the provider's signals, within 1 min..1 h.
    expect(every("alternative.me")).toBe(H);
    expect(every("coingecko")).toBe(5 * MINUTE);
    expect(every("deribit")).toBe(5 * MINUTE);
    expect(every("gate")).toBe(5 * MINUTE);
    expect(every("candles:BTC")).toBe(MINUTE);
    // BTC's daily closes, fetched as often as the Yahoo series they pair with.
    expect(every("daily-closes:BTC")).toBe(every("yahoo"));
    expect(every("daily-closes:BTC")).toBe(H);
    // Network and sector figures: a twelfth of their refresh too (TPS, AI sector and TAO 1 h, SOL stake 1 d).
    expect(every("solana-tps")).toBe(5 * MINUTE);
    expect(every("solana-stake")).toBe(H);
    expect(every("coingecko-ai-sector")).toBe(5 * MINUTE);
    expect(every("subtensor")).toBe(5 * MINUTE);
    // Each poller's schedule is a reminder in the host's store, and opening the market and
    // scheduling added no timer to the process: nothing polls until the host runs its reminders.
    const reminders = await store.actorState.loadReminders();
    expect(reminders.filter((r) => r.actorType === MarketPollerActor.actorType).map((r) => r.actorId).sort()).toEqual(market.pollers.map((p) => p.id).sort());
    expect(timersAfterScheduling).toBe(timersBeforeMarket);
    expect(server.requests).toEqual([]);
    expect(calls).toEqual({ ohlcv: 0, daily: 0, futures: 0, liquidations: 0 });
  });

  it("polls every provider once when the reminders first fire; a slow provider does not hold up the others", async () => {
    // Providers stamp readings with their own (wall) time; keep the host clock on it.
    clock.set(Date.now());
    const started = Date.now();
    await host.runDue();
    const took = Date.now() - started;
    // The slow Deribit poll's turn gave up waiting after the budget; the others were done by then.
    expect(took).toBeLessThan(DERIBIT_DELAY_MS);
    expect(hits("/fng/")).toBe(1);
    expect(hits("/api/v3/global")).toBe(1);
    expect(hits("/stablecoincharts/all")).toBe(1);
    expect(calls.ohlcv).toBe(4);
    expect(calls.daily).toBe(1);
    expect(calls.futures).toBe(1);
    // Liquidations: the last closed hour and the 23 before it (the cascade-risk baseline), one
    // request each; hours without liquidations are real readings of 0, not missing data.
    expect(calls.liquidations).toBe(24);
    const now = market.feed.latestReadings(Date.now());
    expect(now.get("LIQ_DIRECTIONAL_BIAS")?.value).toBe(0);
    expect(now.get("LIQ_CASCADE_RISK")?.value).toBe(0);
    expect(now.get("FEAR_GREED_INDEX")?.value).toBe(61);
    expect(now.get("BTC_DOMINANCE")?.value).toBe(58.5);
    expect(now.get("BTC_FUNDING_RATE")?.value).toBeCloseTo(0.01, 9);
    expect(now.has("DVOL")).toBe(false);
    expect(market.feed.networkFigures(Date.now())).toMatchObject({
      solNetworkTps: 1000,
      solStakingParticipationPct: null,
      aiSector: { change24hPct: -1.5, percentile20: null },
      taoStakingRatioPct: 75,
      taoSubnetCount: 128,
    });
    // ... and lands when the provider answers, without another firing.
    await waitFor(async () => market.feed.latestReadings(Date.now()).get("DVOL")?.value === 50.5, 10_000, "the background Deribit poll");
    expect(hits("/api/v2/public/get_volatility_index_data")).toBe(1);
  });

  it("fires each poller again at its own period on the host clock", async () => {
    const t0 = clock.now();
    clock.set(t0 + MINUTE);
    await host.runDue();
    expect(calls.ohlcv).toBe(8);
    expect(hits("/api/v3/global")).toBe(1);
    expect(hits("/fng/")).toBe(1);

    clock.set(t0 + 5 * MINUTE);
    await host.runDue();
    // Missed minutes coalesce into one firing per poller.
    expect(calls.ohlcv).toBe(12);
    expect(calls.daily).toBe(1);
    expect(hits("/api/v3/global")).toBe(2);
    expect(calls.futures).toBe(2);
    expect(hits("/fng/")).toBe(1);

    clock.set(t0 + H);
    await host.runDue();
    expect(hits("/fng/")).toBe(2);
    expect(calls.daily).toBe(2);
    expect(hits("/api/v3/global")).toBe(3);
  });

  it("logs a source that stays down once where it starts failing and once where it answers again, and counts every poll", async () => {
    const lines = (msg: string) => log.lines.filter((l) => l.msg === msg);
    // Coin Metrics has answered 503 since the first firing: one warning, however many polls.
    clock.set(clock.now() + 4 * H);
    await host.runDue();
    expect(lines("live source failing: coinmetrics")).toHaveLength(1);
    expect(lines("live source failing: coinmetrics")[0]).toMatchObject({ poller: "coinmetrics", kind: "http" });
    // alternative.me (hourly) goes down for two polls, then answers again.
    server.route((path, body) => (path.startsWith("/fng/") ? { status: 503, body: { error: "down" } } : answer(path, body)));
    for (let k = 0; k < 2; k++) {
      clock.set(clock.now() + H);
      await host.runDue();
    }
    expect(hits("/fng/")).toBeGreaterThanOrEqual(2);
    expect(lines("live source failing: alternative.me")).toHaveLength(1);
    expect(lines("live source answering again: alternative.me")).toHaveLength(0);
    server.route(answer);
    clock.set(clock.now() + H);
    await host.runDue();
    expect(lines("live source failing: alternative.me")).toHaveLength(1);
    const back = lines("live source answering again: alternative.me");
    expect(back).toHaveLength(1);
    expect(Date.parse(String(back[0]?.at)) - Date.parse(String(back[0]?.since))).toBe(2 * H);
    // The same polls, counted for Prometheus by source and outcome.
    const metric = await metricsRegistry.getSingleMetricAsString("mis_live_polls_total");
    const count = (poller: string, outcome: string) => Number(new RegExp(`poller="${poller}",outcome="${outcome}"\\} (\\d+)`).exec(metric)?.[1] ?? 0);
    expect(count("alternative.me", "http")).toBe(2);
    expect(count("alternative.me", "ok")).toBeGreaterThanOrEqual(2);
    expect(count("coinmetrics", "http") + count("coinmetrics", "circuit_open")).toBeGreaterThanOrEqual(2);
  });

  it("stops polling when the host shuts down", async () => {
    await host.shutdown();
    await market.stop();
    const before = { requests: server.requests.length, ...calls };
    clock.set(clock.now() + 2 * H);
    // Asked to fire what is due two hours on, the stopped host fires nothing, and its pollers
    // refuse calls.
    await host.runDue();
    await expect(host.proxy(MarketPollerActor, "coingecko").ensureScheduled()).rejects.toThrow(ActorHostStoppedError);
    expect({ requests: server.requests.length, ...calls }).toEqual(before);
  });
});
