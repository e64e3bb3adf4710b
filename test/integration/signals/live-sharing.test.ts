import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { LiveMarketFeed } from "../../../src/feeds/live/live-market-feed.js";
import { LiveFeedSync, LogPublisher } from "../../../src/feeds/live/feed-sync.js";
import { ResilientProvider } from "../../../src/feeds/live/resilient-provider.js";
import type { CandleSource } from "../../../src/feeds/live/candle-source.js";
import type { ReadingProvider } from "../../../src/feeds/live/reading-provider.js";
import type { FigureProvider } from "../../../src/feeds/live/figure-provider.js";
import type { DailySeriesSink } from "../../../src/feeds/live/live-macro-series.js";
import type { Candle } from "../../../src/domain/signals/reading.js";
import { MACRO_SERIES_KEYS } from "../../../src/domain/signals/macro-series.js";
import { ASSETS, SIGNAL_KEYS, type Asset } from "../../../src/domain/signals/signal-keys.js";
import type { LiveObservationLog } from "../../../src/store/ports/live-observations.js";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { freshStoreUrl, type StoreKind } from "../../support/service.js";
import { quietLiquidations } from "../../support/quiet-liquidations.js";
import { noBars, noDerivatives } from "../../support/quiet-exchanges.js";
import { FakeProviderServer } from "../../unit/feeds/live/fake-provider-server.js";
import { openMarket } from "../../../src/composition/open-market.js";
import { loadConfig } from "../../../src/config/env.js";

const H = 3_600_000;
const DAY = 24 * H;
const NOW = Date.parse("2026-04-20T00:30:00Z");
const noRetry = { retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 }, breaker: { failureThreshold: 100, cooldownMs: 1 } };
const quiet = () => undefined;

/**
 * Stand-ins for the internet only (an exchange's klines, a provider's answers); every class of
 * ours runs as in production. The feed under test shares through the real store, and each feed
 * has its own caches: what one knows of the other came through the store.
 */
function venue(history: Readonly<Record<Asset, readonly Candle[]>>, upTo: { t: number }): CandleSource {
  return {
    id: "binance",
    async fetchHourly(asset, since, limit) {
      return history[asset].filter((b) => b.t <= upTo.t && (since === null || b.t >= since)).slice(-limit);
    },
  };
}

function readingsProvider(clock: ManualClock, sink: () => DailySeriesSink, fear: { value: number }): ReadingProvider {
  return {
    id: "fake-macro",
    async poll() {
      const today = Math.floor(clock.now() / DAY) * DAY;
      // As FRED and Yahoo do: daily history to the sink, the latest values as readings.
      for (const key of [...MACRO_SERIES_KEYS, "BTC"] as const) {
        sink().record(key, Array.from({ length: 50 }, (_, i) => ({ day: today - (50 - i) * DAY, value: 100 + Math.sin(i + key.length) * 5 + i * 0.1 })));
      }
      return [
        { key: "FEAR_GREED_INDEX", value: fear.value, observedAt: today, source: "fake-macro" },
        { key: "DVOL", value: 48.5, observedAt: clock.now() - 60_000, source: "fake-macro" },
      ];
    },
  };
}

function figuresProvider(clock: ManualClock): FigureProvider {
  return {
    id: "fake-figures",
    keys: ["SOL_NETWORK_TPS", "AI_SECTOR_CHANGE_24H", "TAO_STAKING_RATIO", "TAO_SUBNET_COUNT"],
    async poll() {
      return [
        { key: "SOL_NETWORK_TPS", value: 1234.5, observedAt: clock.now(), source: "fake-figures" },
        { key: "AI_SECTOR_CHANGE_24H", value: -2.5, observedAt: clock.now(), source: "fake-figures" },
        { key: "TAO_STAKING_RATIO", value: 73.33, observedAt: clock.now(), source: "fake-figures" },
        { key: "TAO_SUBNET_COUNT", value: 129, observedAt: clock.now(), source: "fake-figures" },
      ];
    },
  };
}

/** Everything a reader of the feed can see, as of `at`. */
function view(feed: LiveMarketFeed, at: number) {
  return {
    readings: Object.fromEntries([...feed.latestReadings(at)].sort(([a], [b]) => a.localeCompare(b))),
    rsiHistory: feed.readingsBetween("BTC_RSI", 0, at),
    candles: Object.fromEntries(ASSETS.map((a) => [a, [feed.candles(a, "1h", at, 1000), feed.candles(a, "4h", at, 1000)]])),
    technicals: Object.fromEntries(ASSETS.map((a) => [a, [feed.technicals(a, "1h", at), feed.technicals(a, "4h", at)]])),
    macro: Object.fromEntries(MACRO_SERIES_KEYS.map((k) => [k, feed.macroSeries(k, at)])),
    figures: feed.networkFigures(at),
    spots: Object.fromEntries(ASSETS.map((a) => [a, feed.spotPrice(a, at)])),
  };
}

describe.each<StoreKind>(["sqlite", "mongodb"])("live feeds sharing what they fetched through the %s store", (kind) => {
  let store: Store;
  let history: Record<Asset, readonly Candle[]>;
  const clock = new ManualClock(NOW);
  const upTo = { t: 0 };
  const fear = { value: 34 };
  let poller: LiveMarketFeed;
  let reader: LiveMarketFeed;
  let readerSync: LiveFeedSync;
  let pollAll: () => Promise<void>;

  beforeAll(async () => {
    store = await openStore(freshStoreUrl(kind, "liveshare"));
    const replay = await sharedReplayFeed();
    const end = Date.parse("2026-04-19T00:00:00Z");
    // 300 real bars per asset re-dated to end an hour before NOW, so EMA-200 and 4 h bars exist.
    history = Object.fromEntries(
      ASSETS.map((a) => {
        const bars = replay.candles(a, "1h", end, 300);
        const shift = Math.floor(NOW / H) * H - H - (bars.at(-1)?.t ?? 0);
        return [a, bars.map((b) => ({ ...b, t: b.t + shift }))] as [Asset, readonly Candle[]];
      }),
    ) as Record<Asset, readonly Candle[]>;
    upTo.t = Math.floor(NOW / H) * H - 2 * H;
    poller = new LiveMarketFeed(clock, venue(history, upTo), [], new LogPublisher(store.liveObservations, clock, quiet));
    reader = new LiveMarketFeed(clock, venue(history, { t: 0 }), []);
    readerSync = new LiveFeedSync(store.liveObservations, reader, clock, quiet);
    const macro = new ResilientProvider(readingsProvider(clock, () => poller.macroSeriesSink, fear), clock, noRetry);
    const figures = new ResilientProvider(figuresProvider(clock), clock, noRetry);
    pollAll = async () => {
      expect((await poller.pollProvider(macro)).ok).toBe(true);
      expect((await poller.pollFigures(figures)).ok).toBe(true);
      for (const a of ASSETS) expect((await poller.pollCandles(a)).ok).toBe(true);
    };
  });
  afterAll(() => store.close());

  it("a feed that polled nothing answers exactly as the one that polled, once it has synced", async () => {
    await pollAll();
    const polled = view(poller, clock.now());
    // The poller really has content: readings, BTC technicals derived from bars, series, figures.
    expect(polled.readings.FEAR_GREED_INDEX?.value).toBe(34);
    expect(polled.readings.BTC_RSI?.value).toBeGreaterThanOrEqual(0);
    expect(polled.readings.BTC_RSI?.value).toBeLessThanOrEqual(100);
    expect(polled.candles.BTC?.[0]).toHaveLength(299);
    expect(polled.macro.US10Y?.correlation30d).not.toBeNull();
    // Derived from the NASDAQ and BTC series, not polled as a reading: the reader must derive it from them too.
    expect(polled.readings.BTC_NASDAQ_CORR?.value).toBe(polled.macro.NASDAQ?.correlation30d);
    expect(polled.readings.BTC_NASDAQ_CORR?.observedAt).toBe(polled.macro.NASDAQ?.observedAt);
    expect(polled.figures.solNetworkTps).toBe(1234.5);
    expect(polled.figures).toMatchObject({ taoStakingRatioPct: 73.33, taoSubnetCount: 129 });
    expect(view(reader, clock.now()).readings).toEqual({});

    expect(await readerSync.pull()).toBeGreaterThan(0);
    expect(view(reader, clock.now())).toEqual(polled);
  });

  it("applies what changed at the next pull: a new bar, a revised reading", async () => {
    upTo.t += H;
    clock.set(NOW + H);
    fear.value = 36;
    await pollAll();
    const applied = await readerSync.pull();
    // The skew window re-reads recent rows; what changed is what matters.
    expect(applied).toBeGreaterThan(0);
    expect(view(reader, clock.now())).toEqual(view(poller, clock.now()));
    expect(reader.latestReadings(clock.now()).get("FEAR_GREED_INDEX")?.value).toBe(36);
    expect(reader.candles("BTC", "1h", clock.now(), 1000)).toHaveLength(300);
  });

  it("a process started later (a restart, another replica) loads the whole live state from the store", async () => {
    const fresh = new LiveMarketFeed(clock, venue(history, { t: 0 }), []);
    await new LiveFeedSync(store.liveObservations, fresh, clock, quiet).pull();
    expect(view(fresh, clock.now())).toEqual(view(poller, clock.now()));
    for (const key of SIGNAL_KEYS) expect(fresh.readingsBetween(key, 0, clock.now())).toEqual(poller.readingsBetween(key, 0, clock.now()));
  });

  it("shares the price of the bar still forming as the spot price, live for 5 minutes", async () => {
    const at = clock.now();
    const hourOpen = Math.floor(at / H) * H;
    const last = history.BTC.at(-1) as Candle;
    // The exchange's klines end with the hour under way; its close so far is the last trade.
    const forming: Candle = { t: hourOpen, o: last.c, h: last.c * 1.01, l: last.c * 0.99, c: last.c * 1.004, v: 12 };
    const withForming = { ...history, BTC: [...history.BTC.filter((b) => b.t < hourOpen), forming] };
    const spotPoller = new LiveMarketFeed(clock, venue(withForming, { t: hourOpen }), [], new LogPublisher(store.liveObservations, clock, quiet));
    expect((await spotPoller.pollCandles("BTC")).ok).toBe(true);
    expect(spotPoller.spotPrice("BTC", at)).toEqual({ value: forming.c, observedAt: at });
    // Not a closed bar: the candles and indicators still end at the last closed hour.
    expect(spotPoller.candles("BTC", "1h", at, 1000).at(-1)?.t).toBeLessThan(hourOpen);
    await readerSync.pull();
    expect(reader.spotPrice("BTC", at)).toEqual({ value: forming.c, observedAt: at });
    // A minute later the next poll's price replaces it, in the same row of the log.
    clock.set(at + 60_000);
    const moved = { ...forming, c: forming.c * 1.002 };
    const nextPoller = new LiveMarketFeed(clock, venue({ ...withForming, BTC: [...withForming.BTC.slice(0, -1), moved] }, { t: hourOpen }), [], new LogPublisher(store.liveObservations, clock, quiet));
    expect((await nextPoller.pollCandles("BTC")).ok).toBe(true);
    await readerSync.pull();
    expect(reader.spotPrice("BTC", clock.now())).toEqual({ value: moved.c, observedAt: at + 60_000 });
    // Without a poll for over 5 minutes there is no live price: SPEC's charting field reads 0.
    expect(reader.spotPrice("BTC", at + 60_000 + 5 * 60_000 + 1)).toBeNull();
  });

  it("skips rows it cannot read (another version's stream, a damaged payload) and reads on", async () => {
    await store.liveObservations.put(
      [
        { stream: "gossip:BTC", at: NOW, payload: "{}" },
        { stream: "reading:DVOL", at: NOW + H - 1000, payload: "not json" },
        { stream: "reading:NOT_A_SIGNAL", at: NOW, payload: '{"value":1,"source":"x"}' },
        { stream: "reading:HASH_RIBBON", at: NOW + H - 1000, payload: '{"value":1.05,"source":"coinmetrics"}' },
      ],
      clock.now(),
    );
    await readerSync.pull();
    expect(reader.latestReadings(clock.now()).get("HASH_RIBBON")?.value).toBe(1.05);
    expect(reader.latestReadings(clock.now()).get("DVOL")?.value).toBe(48.5);
  });
});

/** The store's real log, refusing writes while `down()` (an outage of the store's server). */
function refusingWrites(log: LiveObservationLog, down: () => boolean): LiveObservationLog {
  return {
    put: (items, at) => (down() ? Promise.reject(new Error("store unreachable")) : log.put(items, at)),
    after: (c, n) => log.after(c, n),
    pruneBefore: (c) => log.pruneBefore(c),
  };
}

describe("publishing while the store refuses writes", () => {
  it("keeps what it could not write and writes it with the next poll's observations", async () => {
    const store = await openStore(freshStoreUrl("sqlite", "liveshare-outage"));
    try {
      let down = true;
      const flaky = refusingWrites(store.liveObservations, () => down);
      const clock = new ManualClock(NOW);
      const warnings: string[] = [];
      const publisher = new LogPublisher(flaky, clock, (message) => warnings.push(message));
      const reading = (value: number, at: number) => ({ stream: "reading:FEAR_GREED_INDEX", at, payload: JSON.stringify({ value, source: "alternative.me" }) });
      await publisher.publish([reading(30, NOW - DAY)]);
      expect(warnings).toHaveLength(1);
      down = false;
      await publisher.publish([reading(34, NOW)]);
      const reader = new LiveMarketFeed(clock, { id: "binance", fetchHourly: async () => [] }, []);
      await new LiveFeedSync(store.liveObservations, reader, clock, () => undefined).pull();
      expect(reader.readingsBetween("FEAR_GREED_INDEX", 0, NOW).map((r) => r.value)).toEqual([30, 34]);
      // Stopping while the store is still down: the last try fails, and says what was lost.
      down = true;
      await publisher.publish([reading(36, NOW + H)]);
      await publisher.flush();
      expect(warnings.at(-1)).toBe("live observations not shared before stopping, so other processes will not see them: 1");
      down = false;
      await publisher.flush();
      await new LiveFeedSync(store.liveObservations, reader, clock, () => undefined).pull();
      expect(reader.readingsBetween("FEAR_GREED_INDEX", 0, NOW + H).map((r) => r.value)).toEqual([30, 34]);
    } finally {
      await store.close();
    }
  });

  it("a process stopping after the store refused its writes shares them on the way out", async () => {
    const store = await openStore(freshStoreUrl("sqlite", "liveshare-stop"));
    const server = await FakeProviderServer.start();
    try {
      let down = false;
      const flaky = refusingWrites(store.liveObservations, () => down);
      const now = Date.now();
      const clock = new ManualClock(now);
      const day = Math.floor(now / DAY) * DAY;
      server.route((path) =>
        path.startsWith("/fng/") ? { body: { data: [{ value: "27", value_classification: "Fear", timestamp: String(day / 1000) }], metadata: { error: null } } } : { status: 503, body: {} },
      );
      const warnings: string[] = [];
      const market = await openMarket(
        loadConfig({ MARKET_FEED: "live", LOG_LEVEL: "silent" }),
        clock,
        undefined,
        {
          baseUrls: { alternativeMe: server.url },
          spot: noBars,
          futures: noDerivatives,
          liquidations: quietLiquidations(),
          resilience: noRetry,
        },
        { log: flaky, warn: (message) => warnings.push(message), holds: store.providerHolds },
      );
      // The poll lands in this process's feed while the store refuses the write ...
      down = true;
      const poll = await market.pollers.find((p) => p.id === "alternative.me")?.poll();
      expect(poll?.ok).toBe(true);
      expect(market.feed.latestReadings(now).get("FEAR_GREED_INDEX")?.value).toBe(27);
      expect(warnings).toEqual(["live observations not shared yet; retried with the next poll"]);
      // ... the store is back, and the process stops before its next poll: the stop writes it.
      down = false;
      await market.stop();
      const reader = new LiveMarketFeed(clock, { id: "binance", fetchHourly: async () => [] }, []);
      await new LiveFeedSync(store.liveObservations, reader, clock, quiet).pull();
      expect(reader.latestReadings(now).get("FEAR_GREED_INDEX")?.value).toBe(27);
      expect(warnings).toHaveLength(1);
    } finally {
      await server.close();
      await store.close();
    }
  });
});
