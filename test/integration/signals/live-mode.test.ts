import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, freshStoreUrl, startService, type RunningService } from "../../support/service.js";
import { captureLogger } from "../../support/capture-logger.js";
import { waitFor } from "../../support/wait-for.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { FakeProviderServer, type FakeAnswer } from "../../unit/feeds/live/fake-provider-server.js";
import { candlesResponseSchema, signalsSnapshotSchema } from "../../../src/http/schemas/signals.js";
import type { OhlcvExchange } from "../../../src/feeds/live/ccxt-candle-source.js";
import type { DerivativesExchange } from "../../../src/feeds/live/ccxt-derivatives.js";
import type { Candle } from "../../../src/domain/signals/reading.js";
import { ASSETS, type Asset } from "../../../src/domain/signals/signal-keys.js";
import { quietLiquidations } from "../../support/quiet-liquidations.js";
import { MarketPollerActor } from "../../../src/actors/market-poller-actor.js";
import { ActorHostStoppedError } from "../../../src/runtime/actor-host.js";
import type { OrderBookExchange } from "../../../src/feeds/live/ccxt-order-book.js";
import { GhostTraderActor } from "../../../src/actors/ghost-trader-actor.js";

const H = 3_600_000;
const DAY = 24 * H;

/**
 * Real hourly bars of the bundled history, re-dated so the newest is the hour forming now (as an
 * exchange serves it), and thin order books in ccxt's unified shape (about 4,000 USD within
 * ±0.5 % of mid, under gate 0's 50,000) for every pair.
 */
function exchangeFrom(history: Readonly<Record<Asset, readonly Candle[]>>): OhlcvExchange & OrderBookExchange {
  return {
    async fetchOrderBook(symbol: string) {
      const mid = history[symbol.split("/")[0] as Asset].at(-1)?.c ?? 100;
      const timestamp = Date.now();
      return { symbol, bids: [[mid * 0.9995, 2000 / mid]], asks: [[mid * 1.0005, 2000 / mid]], timestamp, datetime: new Date(timestamp).toISOString(), nonce: 1 };
    },
    async fetchOHLCV(symbol: string, tf?: string, since?: number, limit = 1000) {
      // Hourly bars only: BTC's daily closes (a poller of their own) find none here.
      if (tf !== "1h") return [];
      const asset = symbol.split("/")[0] as Asset;
      const bars = history[asset];
      const shift = Math.floor(Date.now() / H) * H - (bars.at(-1)?.t ?? 0);
      return bars
        .map((b) => [b.t + shift, b.o, b.h, b.l, b.c, b.v])
        .filter((row) => since === undefined || (row[0] as number) >= since)
        .slice(0, limit);
    },
  };
}

/** ccxt's unified shapes for Binance USDT-M funding history and open interest. */
const futures: DerivativesExchange = {
  async fetchFundingRateHistory() {
    const settled = Math.floor(Date.now() / (8 * H)) * 8 * H;
    return [
      { fundingRate: 0.0001, timestamp: settled - 8 * H },
      { fundingRate: 0.00012, timestamp: settled },
    ];
  },
  async fetchOpenInterest() {
    return { openInterestAmount: 81234.5, timestamp: Date.now() };
  },
};

/** One local server answering each provider's documented paths; Coin Metrics is down (503). */
function answer(path: string): FakeAnswer {
  const now = Date.now();
  const today = Math.floor(now / DAY) * DAY;
  if (path.startsWith("/fng/")) {
    return { body: { data: [{ value: "34", value_classification: "Fear", timestamp: String(today / 1000) }], metadata: { error: null } } };
  }
  if (path.startsWith("/api/v3/global")) return { body: { data: { market_cap_percentage: { btc: 57.25 }, updated_at: Math.floor(now / 1000) } } };
  if (path.startsWith("/stablecoincharts/all")) {
    return {
      body: Array.from({ length: 10 }, (_, d) => ({
        date: String((today - (9 - d) * DAY) / 1000),
        totalCirculatingUSD: { peggedUSD: 250e9 + d * 150e6 },
      })),
    };
  }
  if (path.includes("get_volatility_index_data")) {
    return { body: { jsonrpc: "2.0", result: { data: [[Math.floor(now / H) * H - H, 48, 49, 47, 48.5]], continuation: null } } };
  }
  if (path.includes("get_book_summary_by_currency")) {
    return {
      body: {
        jsonrpc: "2.0",
        result: [
          { instrument_name: "BTC-27MAR27-80000-C", open_interest: 300, creation_timestamp: now - 1000 },
          { instrument_name: "BTC-27MAR27-60000-P", open_interest: 150, creation_timestamp: now - 2000 },
        ],
      },
    };
  }
  return { status: 503, body: { error: "unavailable" } };
}

describe("MARKET_FEED=live wired to the live adapters (local provider servers)", () => {
  let server: FakeProviderServer;
  let svc: RunningService;
  let basic: string;
  const storeUrl = freshStoreUrl("sqlite", "live");

  beforeAll(async () => {
    server = await FakeProviderServer.start();
    server.route(answer);
    const replay = await sharedReplayFeed();
    const end = Date.parse("2026-04-20T00:00:00Z");
    const history = Object.fromEntries(ASSETS.map((a) => [a, replay.candles(a, "1h", end, 1000)])) as Record<Asset, readonly Candle[]>;
    svc = await startService(
      { MARKET_FEED: "live", STORE_URL: storeUrl },
      {
        feed: undefined,
        live: {
          baseUrls: { alternativeMe: server.url, coingecko: server.url, coinmetrics: server.url, defillama: server.url, deribit: server.url, fred: server.url, yahoo: server.url, solanaRpc: server.url, subtensorRpc: server.url },
          spot: exchangeFrom(history),
          futures,
          liquidations: quietLiquidations(),
          resilience: { retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 20 }, breaker: { failureThreshold: 5, cooldownMs: 60_000 } },
        },
      },
    );
    basic = await createKey(svc, "basic");
    // Pollers start with the service; wait on the feed itself so no HTTP answer is cached early.
    await waitFor(async () => svc.service.deps.feed.latestReadings(Date.now()).size >= 12, 20_000, "the first live polls");
  });
  afterAll(async () => {
    await svc?.stop();
    await server?.close();
  });

  it("serves a snapshot of what the providers delivered, and DEAD for what no reachable source gives", async () => {
    const res = await fetch(`${svc.url}/v1/signals/latest`, { headers: { "x-api-key": basic } });
    expect(res.status).toBe(200);
    const body = signalsSnapshotSchema.parse(await res.json());
    const byKey = new Map(body.signals.map((s) => [s.key, s]));
    expect(byKey.get("FEAR_GREED_INDEX")).toMatchObject({ status: "LIVE", value: 34 });
    expect(byKey.get("BTC_DOMINANCE")).toMatchObject({ status: "LIVE", value: 57.25 });
    expect(byKey.get("PUT_CALL_RATIO")).toMatchObject({ status: "LIVE", value: 0.5 });
    expect(byKey.get("OPTIONS_OI")).toMatchObject({ status: "LIVE", value: 450 });
    expect(byKey.get("DVOL")).toMatchObject({ status: "LIVE", value: 48.5 });
    expect(byKey.get("STABLECOIN_MINT")?.status).toBe("LIVE");
    expect(byKey.get("STABLECOIN_MINT")?.value).toBeCloseTo(7 * 150, 6);
    expect(byKey.get("BTC_FUNDING_RATE")).toMatchObject({ status: "LIVE", value: 0.012 });
    expect(byKey.get("BTC_OPEN_INTEREST")).toMatchObject({ status: "LIVE", value: 81234.5 });
    for (const key of ["BTC_RSI", "BTC_EMA200_DISTANCE", "BTC_MACD_HIST", "BTC_REALIZED_VOL", "BTC_VOLUME_RATIO"] as const) {
      expect(byKey.get(key)?.status, key).toBe("LIVE");
      expect(Number.isFinite(byKey.get(key)?.value), key).toBe(true);
    }
    // This server answers 503 for Coin Metrics, FRED and Yahoo: their signals were never observed.
    for (const key of ["MVRV_ZSCORE", "NUPL", "HASH_RIBBON", "US10Y", "DXY", "SOPR"] as const) {
      expect(byKey.get(key), key).toMatchObject({ status: "DEAD", value: null });
    }
    expect(Math.abs(Date.parse(body.timestamp) - Date.now())).toBeLessThan(60_000);
  });

  it("serves live candles: closed hourly bars only, ending at the last full hour", async () => {
    const res = await fetch(`${svc.url}/v1/market/candles?asset=ETH&interval=1h&limit=5`, { headers: { "x-api-key": basic } });
    const body = candlesResponseSchema.parse(await res.json());
    expect(body.candles).toHaveLength(5);
    expect(((body.candles.at(-1)?.t ?? 0) + 3600) * 1000).toBe(Math.floor(Date.now() / H) * H);
  });

  it("probes every Ghost Trader's order-book depth and reads it against gate 0's 50,000 USD", async () => {
    for (const asset of ASSETS) {
      const liquidity = await waitFor(async () => {
        const l = await svc.service.deps.host.proxy(GhostTraderActor, asset).liquidity();
        return l.depthUsd !== null && l;
      }, 20_000, `${asset}'s first depth probe`);
      expect(liquidity.status, asset).toBe("INSUFFICIENT");
      expect(liquidity.depthUsd, asset).toBeCloseTo(4000, 0);
    }
  });

  it("gives the TAO council the TAO trader's depth: the thin book raises LIQUIDITY_RISK and the council rules AVOID", async () => {
    const pro = await createKey(svc, "pro");
    // The run endpoint asks the council to deliberate when the current half-hour has no session.
    const res = await fetch(`${svc.url}/v1/tao/council/run`, { method: "POST", headers: { "x-api-key": pro } });
    expect(res.status).toBe(200);
    const session = await waitFor(async () => {
      const s = await svc.service.deps.store.councilSessions.latest("TAO");
      return s !== null && s.riskFlags.includes("LIQUIDITY_RISK") && s;
    }, 30_000, "a TAO session that read the trader's depth");
    expect(session.ruling).toBe("AVOID");
    // The other councils have no such flag: the depth is TAO's.
    for (const asset of ["BTC", "SOL"] as const) expect((await svc.service.deps.store.councilSessions.latest(asset))?.riskFlags ?? []).not.toContain("LIQUIDITY_RISK");
  });

  it("takes each turn once what it reads is in: regime, evidence, verdicts and councils 2 minutes after the hour (the bar is polled), the traders a minute later", async () => {
    // The candles are polled once a minute: a turn exactly on the hour would find the bar that
    // just closed missing and act on the hour before's.
    const reminders = await svc.service.deps.store.actorState.loadReminders();
    const minuteOfHour = (type: string, id: string, name: string) => {
      const r = reminders.find((x) => x.actorType === type && x.actorId === id && x.name === name);
      expect(r?.periodMs, `${type}/${id} ${name}`).toBeGreaterThanOrEqual(5 * 60_000);
      return ((r?.dueAt ?? Number.NaN) % (r?.periodMs ?? H)) / 60_000;
    };
    expect(minuteOfHour("Regime", "BTC", "evaluate")).toBe(2);
    for (const asset of ASSETS) expect(minuteOfHour("Evidence", asset, "evaluate")).toBe(2);
    for (const asset of ASSETS) expect(minuteOfHour("Verdict", asset, "evaluate")).toBe(2);
    for (const asset of ["BTC", "TAO", "SOL"]) expect(minuteOfHour("Council", asset, "deliberate")).toBe(2);
    for (const asset of ASSETS) expect(minuteOfHour(GhostTraderActor.actorType, asset, "bar")).toBe(3);
  });

  it("stops its pollers with the service", async () => {
    await svc.stop();
    const before = server.requests.length;
    // The pollers are actors of the stopped host: every call to them is refused, and their
    // reminders have nobody left to fire them.
    await expect(svc.service.deps.host.proxy(MarketPollerActor, "coingecko").ensureScheduled()).rejects.toThrow(ActorHostStoppedError);
    expect(server.requests.length).toBe(before);
  });

  it("after a restart with every provider down, answers what was fetched before (the store's live log)", async () => {
    const down = await FakeProviderServer.start();
    down.route(() => ({ status: 503, body: { error: "unavailable" } }));
    const unreachable = async (): Promise<never> => {
      throw new Error("exchange unreachable");
    };
    const log = captureLogger("info");
    const restarted = await startService(
      { MARKET_FEED: "live", STORE_URL: storeUrl },
      {
        feed: undefined,
        logger: log.logger,
        live: {
          baseUrls: { alternativeMe: down.url, coingecko: down.url, coinmetrics: down.url, defillama: down.url, deribit: down.url, fred: down.url, yahoo: down.url, solanaRpc: down.url, subtensorRpc: down.url },
          spot: { fetchOHLCV: unreachable },
          futures: { fetchFundingRateHistory: unreachable, fetchOpenInterest: unreachable },
          liquidations: { loadMarkets: unreachable, market: () => ({}), fetchLiquidations: unreachable },
          resilience: { retry: { attempts: 1, baseDelayMs: 5, maxDelayMs: 5 }, breaker: { failureThreshold: 5, cooldownMs: 60_000 } },
        },
      },
    );
    try {
      const key = await createKey(restarted, "basic");
      const res = await fetch(`${restarted.url}/v1/signals/latest`, { headers: { "x-api-key": key } });
      const byKey = new Map(signalsSnapshotSchema.parse(await res.json()).signals.map((s) => [s.key, s]));
      expect(byKey.get("FEAR_GREED_INDEX")).toMatchObject({ status: "LIVE", value: 34 });
      expect(byKey.get("OPTIONS_OI")).toMatchObject({ status: "LIVE", value: 450 });
      expect(byKey.get("BTC_OPEN_INTEREST")).toMatchObject({ status: "LIVE", value: 81234.5 });
      // Derived again from the reloaded bars by the same streaming indicators.
      expect(byKey.get("BTC_RSI")?.status).toBe("LIVE");
      const candles = await fetch(`${restarted.url}/v1/market/candles?asset=ETH&interval=1h&limit=5`, { headers: { "x-api-key": key } });
      expect(candlesResponseSchema.parse(await candles.json()).candles).toHaveLength(5);
      // Every source down, polled twice more (as their reminders would): each is named once in
      // the log, with why, however often it fails.
      const pollers = restarted.service.deps.marketPollers ?? [];
      expect(pollers).toHaveLength(18);
      for (let round = 0; round < 2; round++) await Promise.all(pollers.map((p) => p.poll()));
      const failing = log.lines.filter((l) => typeof l.msg === "string" && l.msg.startsWith("live source failing: "));
      expect(failing.map((l) => String(l.poller)).sort()).toEqual(pollers.map((p) => p.id).sort());
      for (const l of failing) expect(typeof l.err === "string" && l.err.length > 0, String(l.poller)).toBe(true);
    } finally {
      await restarted.stop();
      await down.close();
    }
  });
});
