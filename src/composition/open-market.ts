import { join } from "node:path";
import type { Config } from "../config/env.js";
import type { Clock } from "../runtime/clocks/clock.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import { LiveMarketClock, ReplayMarketClock, type MarketClock } from "../runtime/clocks/market-clock.js";
import { ReplayMarketFeed } from "../feeds/replay/replay-feed.js";
import { defaultReplayStart } from "../feeds/replay/replay-start.js";
import { ASSETS } from "../domain/signals/signal-keys.js";
import { CATALOGUE_IN_ORDER } from "../domain/signals/catalogue.js";
import { parseCalendar } from "../feeds/replay/calendar-file.js";
import { readGzText } from "../feeds/replay/csv-table.js";
import { CALENDAR_FILE } from "../feeds/replay/dataset-files.js";
import { LiveMarketFeed } from "../feeds/live/live-market-feed.js";
import { DEFAULT_RESILIENCE, ResilientProvider, type PollResult, type ResilienceOptions } from "../feeds/live/resilient-provider.js";
import type { ReadingProvider } from "../feeds/live/reading-provider.js";
import type { OrderBookExchange } from "../feeds/live/ccxt-order-book.js";
import { AlternativeMeProvider, ALTERNATIVE_ME_URL } from "../feeds/live/alternative-me.js";
import { CoinGeckoDominanceProvider, COINGECKO_URL } from "../feeds/live/coingecko.js";
import { CoinMetricsProvider, COINMETRICS_URL } from "../feeds/live/coinmetrics.js";
import { DefiLlamaStablecoinProvider, DEFILLAMA_STABLECOINS_URL } from "../feeds/live/defillama.js";
import { DeribitProvider, DERIBIT_URL } from "../feeds/live/deribit.js";
import { FredProvider, FRED_URL } from "../feeds/live/fred.js";
import { YahooChartProvider, YAHOO_CHART_URL } from "../feeds/live/yahoo-chart.js";
import { BtcDailyClosesProvider } from "../feeds/live/btc-daily-closes.js";
import { CcxtDerivativesProvider, type DerivativesExchange } from "../feeds/live/ccxt-derivatives.js";
import { CcxtLiquidationsProvider, GATE_LIQUIDATION_OPTIONS, type LiquidationsExchange } from "../feeds/live/ccxt-liquidations.js";
import { CcxtCandleSource, type OhlcvExchange } from "../feeds/live/ccxt-candle-source.js";
import { guardCcxtExchange } from "../feeds/live/ccxt-guard.js";
import type { SharedExchangeHold } from "../feeds/live/ccxt-retry-after.js";
import type { ProviderHoldRepository } from "../store/ports/provider-holds.js";
import { singleFlight, type MarketPoller } from "../feeds/live/market-poller.js";
import { LiveFeedSync, LogPublisher, type Warn } from "../feeds/live/feed-sync.js";
import type { LiveObservationLog } from "../store/ports/live-observations.js";
import { figurePollEvery, type FigureProvider } from "../feeds/live/figure-provider.js";
import { SolanaStakeProvider, SolanaTpsProvider, SOLANA_RPC_URL } from "../feeds/live/solana-rpc.js";
import { CoinGeckoAiSectorProvider } from "../feeds/live/coingecko-ai-sector.js";
import { reportingOutcomes } from "../feeds/live/poll-outcomes.js";
import type { Logger } from "../logging/logger.js";
import { SubtensorProvider, SUBTENSOR_RPC_URL } from "../feeds/live/subtensor-rpc.js";

export interface Market {
  readonly feed: MarketFeed;
  readonly clock: MarketClock;
  /**
   * Replay only: the market instant where the replay starts running at REPLAY_SPEED. The clock
   * itself starts REPLAY_WARMUP_DAYS earlier; warm-up fast-forwards over that span first.
   */
  readonly runFrom: number | null;
  /**
   * Live mode: the polls to schedule (the market-data capability gives each a MarketPoller actor
   * whose reminder runs it). Empty in replay. The Market starts no timers of its own.
   */
  readonly pollers: readonly MarketPoller[];
  /** Live only: the spot exchange's order book (TAO liquidity gate); null in replay or without one. */
  readonly orderBook: OrderBookExchange | null;
  /**
   * How long after an hourly close the bar is in the feed: 0 where the bars are there already
   * (replay, a preloaded feed); live, the once-a-minute candle poll plus room for a retry. The
   * actors that read the newest bar take their hourly turn this long after the close.
   */
  readonly barSettleMs: number;
  /** Waits (bounded) for polls still in flight (live mode); call after the actor host stopped. */
  stop(): Promise<void>;
}

/** Where the live adapters fetch from: the public APIs by default; tests point them at local servers. */
export interface LiveSources {
  readonly baseUrls?: {
    readonly alternativeMe?: string;
    readonly coingecko?: string;
    readonly coinmetrics?: string;
    readonly defillama?: string;
    readonly deribit?: string;
    readonly fred?: string;
    readonly yahoo?: string;
    /** Solana JSON-RPC (SOL network TPS and staking participation). */
    readonly solanaRpc?: string;
    /** Bittensor subtensor JSON-RPC (TAO staking ratio and subnet count). */
    readonly subtensorRpc?: string;
  };
  /** Spot candles, hourly and BTC's daily ones (default: ccxt binance). */
  readonly spot?: OhlcvExchange;
  /** Where the default ccxt binance (spot) sends its REST calls: a local server speaking Binance's API (tests). */
  readonly binanceSpotUrl?: string;
  /** Funding and open interest (default: ccxt binanceusdm). */
  readonly futures?: DerivativesExchange;
  /** BTC perpetual liquidations (default: ccxt gate). */
  readonly liquidations?: LiquidationsExchange;
  readonly resilience?: ResilienceOptions;
}

/**
 * The store's live observation log and where to report its failures: with it, every process's live
 * feed shares what any process's pollers fetched (several Dapr replicas answer alike, a restart
 * reloads live state). Without it the live feed is this process's alone.
 */
export interface SharedLiveLog {
  readonly log: LiveObservationLog;
  readonly warn: Warn;
  /** The store's exchange holds: a ban one replica hears is waited out by all (ccxt-retry-after.ts). */
  readonly holds: ProviderHoldRepository;
}

const MINUTE = 60_000;
/**
 * Live: a closed hourly bar is in the feed by the first candle poll after its close (each minute)
 * once the exchange answers; two minutes leave room for a slow answer or one retry.
 */
export const LIVE_BAR_SETTLE_MS = 2 * MINUTE;
const HOUR = 60 * MINUTE;


/**
 * Poll period of a provider: a twelfth of the shortest refresh interval among the signals it
 * sources (so a new value shows up well inside the 2x-refresh LIVE window), between 1 min and 1 h.
 * The MarketPoller actors' reminders fire at this period (issue 5 item 8).
 */
function pollEvery(provider: string): number {
  const refresh = CATALOGUE_IN_ORDER.flatMap((d) => (d.sources.live?.provider === provider ? [d.sources.live.refreshMs] : []));
  return Math.min(HOUR, Math.max(MINUTE, Math.min(...refresh, 12 * HOUR) / 12));
}

/** ccxt's binance for spot candles and order books, guarded; `apiUrl` points it at a local server (tests). */
function binanceSpot(ccxt: typeof import("ccxt"), wall: Clock, hold: SharedExchangeHold | undefined, apiUrl: string | undefined) {
  // Spot markets only: nothing here reads another kind, and loading the futures markets as well
  // cost requests against the futures hosts at every start.
  const exchange = guardCcxtExchange(new ccxt.binance({ enableRateLimit: true, options: { fetchMarkets: { types: ["spot"] } } }), wall, hold);
  if (apiUrl !== undefined) (exchange.urls["api"] as Record<string, string>)["public"] = `${apiUrl}/api/v3`;
  return exchange;
}

async function openLive(config: Config, wall: Clock, sources: LiveSources, shared: SharedLiveLog | undefined, logger: Logger | undefined): Promise<Market> {
  const urls = sources.baseUrls ?? {};
  const ccxt = sources.spot && sources.futures && sources.liquidations ? null : await import("ccxt");
  // Each exchange's hold is kept under its API host's name: Binance's spot and futures hosts count apart.
  const held = (provider: string): SharedExchangeHold | undefined => (shared ? { holds: shared.holds, provider, warn: shared.warn } : undefined);
  const spot = sources.spot ?? (ccxt ? binanceSpot(ccxt, wall, held("binance"), sources.binanceSpotUrl) : null);
  const futures = sources.futures ?? (ccxt ? guardCcxtExchange(new ccxt.binanceusdm({ enableRateLimit: true }), wall, held("binanceusdm")) : null);
  const liquidations = sources.liquidations ?? (ccxt ? guardCcxtExchange(new ccxt.gate({ enableRateLimit: true, options: GATE_LIQUIDATION_OPTIONS }), wall, held("gate")) : null);
  if (!spot || !futures || !liquidations) throw new Error("ccxt exchanges unavailable");
  // The US calendar is a schedule, not market data: the bundled file serves live mode too.
  const calendar = parseCalendar(await readGzText(join(config.MARKET_DATA_DIR, CALENDAR_FILE)));
  const publisher = shared ? new LogPublisher(shared.log, wall, shared.warn) : null;
  const candleSource = new CcxtCandleSource("binance", spot);
  const feed = new LiveMarketFeed(wall, candleSource, calendar, publisher);
  const sync = shared ? new LiveFeedSync(shared.log, feed, wall, shared.warn) : null;
  // What earlier runs and the other replicas fetched, before anything reads the feed.
  if (sync) {
    await sync.pull();
    sync.start();
  }
  const providers: ReadingProvider[] = [
    new AlternativeMeProvider(urls.alternativeMe ?? ALTERNATIVE_ME_URL),
    new CoinGeckoDominanceProvider(urls.coingecko ?? COINGECKO_URL),
    new CoinMetricsProvider(wall, urls.coinmetrics ?? COINMETRICS_URL),
    new DefiLlamaStablecoinProvider(wall, urls.defillama ?? DEFILLAMA_STABLECOINS_URL),
    new DeribitProvider(wall, urls.deribit ?? DERIBIT_URL),
    new FredProvider(wall, feed.macroSeriesSink, urls.fred ?? FRED_URL),
    new YahooChartProvider(wall, feed.macroSeriesSink, urls.yahoo ?? YAHOO_CHART_URL),
    new CcxtDerivativesProvider("binance", futures),
    new CcxtLiquidationsProvider("gate", liquidations, wall),
  ];
  // Per-asset network and sector figures for the SOL and TAO councils (not among the 27 signals).
  const figureProviders: FigureProvider[] = [
    new SolanaTpsProvider(wall, urls.solanaRpc ?? SOLANA_RPC_URL),
    new SolanaStakeProvider(wall, urls.solanaRpc ?? SOLANA_RPC_URL),
    new CoinGeckoAiSectorProvider(urls.coingecko ?? COINGECKO_URL),
    new SubtensorProvider(wall, urls.subtensorRpc ?? SUBTENSOR_RPC_URL),
  ];
  const inFlight = new Set<Promise<unknown>>();
  const poller = (id: string, everyMs: number, resilient: Held, poll: () => Promise<PollResult<unknown>>): MarketPoller => ({
    id,
    everyMs,
    // Reported inside the single flight: a firing that joins a running poll does not count it twice.
    poll: singleFlight(logger ? reportingOutcomes(id, poll, logger, wall, () => resilient.providerHoldUntil()) : poll, inFlight),
    providerHoldUntil: () => resilient.providerHoldUntil(),
    holdUntil: (untilMs) => resilient.holdUntil(untilMs),
  });
  const resilience = sources.resilience ?? DEFAULT_RESILIENCE;
  const readingPoller = (p: ReadingProvider, everyMs: number): MarketPoller => {
    const resilient = new ResilientProvider(p, wall, resilience);
    return poller(p.id, everyMs, resilient, () => feed.pollProvider(resilient));
  };
  const pollers: MarketPoller[] = [
    ...providers.map((p) => readingPoller(p, pollEvery(p.id))),
    // BTC's daily closes pair with the Yahoo series: fetched as often, but on their own, so an
    // exchange outage or ban never holds back DXY, GOLD or the Nasdaq-100.
    readingPoller(new BtcDailyClosesProvider(wall, candleSource, feed.macroSeriesSink), pollEvery("yahoo")),
    ...figureProviders.map((p) => {
      const resilient = new ResilientProvider(p, wall, resilience);
      return poller(p.id, figurePollEvery(p), resilient, () => feed.pollFigures(resilient));
    }),
    // Hourly bars close on the hour: poll every minute (each call asks only for newer bars),
    // behind the same retries and breaker as every provider: a rate-limited exchange (429, or
    // Binance's 418 ban) is left alone for the cool-down instead of being called each minute.
    ...ASSETS.map((a) => {
      const candles = { id: `candles:${a}`, poll: async () => unwrapPoll(await feed.pollCandles(a)) };
      const resilient = new ResilientProvider(candles, wall, resilience);
      return poller(candles.id, MINUTE, resilient, () => resilient.poll());
    }),
  ];
  return {
    feed,
    clock: new LiveMarketClock(wall),
    runFrom: null,
    pollers,
    orderBook: hasOrderBook(spot) ? spot : null,
    barSettleMs: LIVE_BAR_SETTLE_MS,
    async stop() {
      // Bounded: a provider in backoff must not hold up shutdown (DECISIONS 1: exit within 10 s).
      // Polls finish (and publish) first, then what the store refused earlier gets its last try.
      const settled = Promise.allSettled([...inFlight, sync?.stop()]).then(() => publisher?.flush());
      await Promise.race([settled, new Promise((r) => setTimeout(r, 2_000).unref())]);
    },
  };
}

/** The part of a ResilientProvider a poller hands its actor: the provider's own hold. */
type Held = Pick<ResilientProvider<unknown>, "providerHoldUntil" | "holdUntil">;

/** A poll's readings, or its failure thrown, as the resilient wrapper expects of a source. */
function unwrapPoll<T>(result: PollResult<T>): readonly T[] {
  if (!result.ok) throw result.error;
  return result.readings;
}

/** A test's stand-in candle source may have no order book; ccxt exchanges do. */
function hasOrderBook(exchange: object): exchange is OrderBookExchange {
  return "fetchOrderBook" in exchange && typeof exchange.fetchOrderBook === "function";
}

/** REPLAY_START as validated by the config: a day means its 00:00 UTC. */
function replayStartMs(value: string): number {
  return Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
}

/** The market the engines read: the bundled history on a replay clock, or live data on wall time. */
export async function openMarket(
  config: Config,
  wall: Clock,
  preloaded?: MarketFeed,
  live: LiveSources = {},
  shared?: SharedLiveLog,
  /** Where live polls report a source that starts failing or answers again (silent without). */
  logger?: Logger,
): Promise<Market> {
  const idle = async () => undefined;
  if (config.MARKET_FEED === "live") {
    // A preloaded feed (tests) is used as it is, without pollers.
    if (preloaded) return { feed: preloaded, clock: new LiveMarketClock(wall), runFrom: null, pollers: [], orderBook: null, barSettleMs: 0, stop: idle };
    return openLive(config, wall, live, shared, logger);
  }
  const feed = preloaded ?? (await ReplayMarketFeed.load(config.MARKET_DATA_DIR));
  const span = feed.span();
  const ends = ASSETS.map((a) => span.lastBarClose[a]).filter((e): e is number => e !== null);
  const end = Math.max(...ends);
  const start = config.REPLAY_START ? replayStartMs(config.REPLAY_START) : defaultReplayStart(span);
  const runFrom = Math.min(start, end);
  if (start > end) {
    // Said once, at start: otherwise the operator sees replay running from another day than asked.
    logger?.warn({ replay_start: new Date(start).toISOString(), data_end: new Date(end).toISOString() }, "REPLAY_START is after the bundled data ends; replay starts at the end of the data");
  }
  const warmUpMs = config.REPLAY_WARMUP_DAYS * 24 * HOUR;
  return { feed, clock: new ReplayMarketClock(wall, runFrom - warmUpMs, config.REPLAY_SPEED, end, runFrom), runFrom, pollers: [], orderBook: null, barSettleMs: 0, stop: idle };
}
