import { buildAssetFeatures, type AssetFeatures, type ObservedTechnicals, type ObservedValue } from "../../domain/signals/asset-features.js";
import type { CalendarEvent } from "../../domain/signals/macro-calendar.js";
import type { MacroSeriesKey, MacroSeriesPoint } from "../../domain/signals/macro-series.js";
import type { Candle, CandleInterval, SignalReading } from "../../domain/signals/reading.js";
import { ASSETS, type Asset, type SignalKey } from "../../domain/signals/signal-keys.js";
import type { Clock } from "../../runtime/clocks/clock.js";
import type { NetworkFigure, NetworkFigures } from "../../domain/signals/network-figures.js";
import type { FeedSpan, MarketFeed } from "../market-feed.js";
import type { CandleSource } from "./candle-source.js";
import { btcTechnicalReadings, KEPT_HOURLY_BARS, LiveCandleStore } from "./live-candle-store.js";
import { LiveMacroSeriesStore, type DailySeriesKey, type DailySeriesSink, type DailyValue } from "./live-macro-series.js";
import { signalSource } from "../../domain/signals/catalogue.js";
import { FigureCache } from "./figure-cache.js";
import type { ObservationPublisher, ObservationSink } from "./feed-sync.js";
import { candleObservation, figureObservation, readingObservation, seriesObservation, spotObservation, type DecodedObservation } from "./observation-codec.js";
import type { LiveObservation } from "../../store/ports/live-observations.js";
import { ProviderError } from "./provider-error.js";
import { ReadingCache } from "./reading-cache.js";
import type { PollResult, ResilientProvider } from "./resilient-provider.js";

const HOUR = 3_600_000;
/** Bars per request: Binance's klines maximum (ccxt passes it through as `limit`). */
const CANDLE_PAGE = 1_000;
/** Requests per poll: the kept hours in full pages, and one more for the bar still forming. */
const MAX_PAGES = Math.ceil(KEPT_HOURLY_BARS / CANDLE_PAGE) + 1;

/** A spot price older than this is no longer "live" (candles are polled every minute). */
export const SPOT_MAX_AGE_MS = 5 * 60_000;

/**
 * How far past this process's clock a provider's stamp may lie (clock skew between hosts). A
 * stamp beyond it is a provider's error (milliseconds read as seconds): kept, it would sit as the
 * newest reading and every later real one would be ignored as older, the signal going DEAD on
 * every replica that reads the shared log.
 */
const FUTURE_STAMP_TOLERANCE_MS = 5 * 60_000;

/** The catalogue's live source of BTC_NASDAQ_CORR, which the feed derives from two series. */
const NASDAQ_CORR_SOURCE = signalSource("BTC_NASDAQ_CORR", "live")?.provider ?? "yahoo";

/**
 * MARKET_FEED=live: answers from what the pollers last fetched. The schedule (the market-data
 * actor's reminders) calls `pollProvider` and `pollCandles`; reads never wait on the network.
 * The daily macro series come from the FRED and Yahoo adapters, and BTC's daily closes from the
 * spot exchange, through `macroSeriesSink`;
 * per-asset funding has no live adapter yet, so it reads as absent (DEAD).
 *
 * With a publisher (the service's, over the store's live observation log), what a poll fetched is
 * also shared: every process's feed applies what any process's pollers wrote (feed-sync.ts), so
 * all replicas answer alike wherever Dapr placed the poller actors, and a restarted process
 * reloads its live state. BTC's technical readings are not shared but derived from the shared
 * bars, by the same streaming indicators in every process.
 */
export class LiveMarketFeed implements MarketFeed, ObservationSink {
  readonly mode = "live" as const;
  private readonly cache = new ReadingCache();
  private readonly stores = Object.fromEntries(ASSETS.map((a) => [a, new LiveCandleStore()])) as Record<Asset, LiveCandleStore>;
  private readonly macro = new LiveMacroSeriesStore();
  private readonly figures = new FigureCache();
  /** Per asset: the newest price of a forming bar any process's poll saw. */
  private readonly spots = new Map<Asset, ObservedValue>();
  /** Series days the providers delivered during the poll under way, published when it ends. */
  private queued: LiveObservation[] = [];
  private readonly seriesSink: DailySeriesSink;

  constructor(
    private readonly clock: Clock,
    private readonly candleSource: CandleSource,
    private readonly calendar: readonly CalendarEvent[],
    private readonly publisher: ObservationPublisher | null = null,
  ) {
    this.seriesSink = {
      record: (key: DailySeriesKey, delivered: readonly DailyValue[]) => {
        const days = this.pastDays(delivered);
        this.recordSeries(key, days);
        if (this.publisher) for (const d of days) this.queued.push(seriesObservation(key, d));
      },
    };
  }

  async pollProvider(provider: ResilientProvider): Promise<PollResult> {
    const result = await provider.poll();
    if (result.ok) {
      const readings = this.notFuture(result.readings);
      this.cache.record(readings);
      await this.share(readings.map(readingObservation));
    }
    return result;
  }

  /** Polls a network/sector figure provider (Solana RPC, CoinGecko categories). */
  async pollFigures(provider: ResilientProvider<NetworkFigure>): Promise<PollResult<NetworkFigure>> {
    const result = await provider.poll();
    if (result.ok) {
      const figures = this.notFuture(result.readings);
      this.figures.record(figures);
      await this.share(figures.map(figureObservation));
    }
    return result;
  }

  /**
   * Fetches the bars newer than the last stored one, from no earlier than the kept span (100
   * days: the first poll backfills them, as does the first poll after a long outage), in pages
   * of the exchange's maximum. BTC bars also yield the 5 technical signals.
   */
  async pollCandles(asset: Asset): Promise<PollResult> {
    const store = this.stores[asset];
    const since = store.lastOpenTime;
    let bars: readonly Candle[];
    try {
      // From the hour the kept span starts: the bar forming now and the 2,400 closed before it.
      const keptFrom = Math.floor(this.clock.now() / HOUR) * HOUR - KEPT_HOURLY_BARS * HOUR;
      bars = await this.fetchSince(asset, Math.max(since === null ? 0 : since + 1, keptFrom));
    } catch (err) {
      const error =
        err instanceof ProviderError ? err : new ProviderError(this.candleSource.id, "network", err instanceof Error ? err.message : "failed");
      return { ok: false, error };
    }
    const now = this.clock.now();
    // Only closed bars newer than the newest kept are taken (LiveCandleStore.append), and shared.
    const closed = bars.filter((b) => (since === null || b.t > since) && b.t + HOUR <= now);
    const readings = this.appendBars(asset, closed, now);
    // The bar still forming carries the last traded price: the spot price, shared like the bars.
    const shared = closed.map((b) => candleObservation(asset, b));
    const forming = bars.filter((b) => b.t <= now && now < b.t + HOUR).at(-1);
    if (forming) {
      const spot = { value: forming.c, observedAt: now };
      this.recordSpot(asset, spot);
      shared.push(spotObservation(asset, forming.t, spot));
    }
    await this.share(shared);
    return { ok: true, readings };
  }

  /**
   * The bars opening at or after `from`, page by page until a page comes back short (caught up)
   * or MAX_PAGES were read (the rest comes with the next poll). A failed page fails the poll:
   * nothing of it is kept, and the next poll starts again from the same bar.
   */
  private async fetchSince(asset: Asset, from: number): Promise<Candle[]> {
    const bars: Candle[] = [];
    let next = from;
    for (let page = 0; page < MAX_PAGES; page++) {
      const got = await this.candleSource.fetchHourly(asset, next, CANDLE_PAGE);
      bars.push(...got);
      const last = got.at(-1);
      if (got.length < CANDLE_PAGE || last === undefined) break;
      next = last.t + 1;
    }
    return bars;
  }

  /**
   * Applies observations any process's pollers shared (LiveFeedSync). Every cache keeps one value
   * per observation time and ignores what is older than its newest, so a row seen twice changes
   * nothing; within one batch, each series is applied oldest first.
   */
  apply(items: readonly DecodedObservation[]): void {
    const readings: SignalReading[] = [];
    const bars = new Map<Asset, Candle[]>();
    const days = new Map<DailySeriesKey, DailyValue[]>();
    const figures: NetworkFigure[] = [];
    for (const item of items) {
      if (item.kind === "reading") readings.push(item.reading);
      else if (item.kind === "candle") append(bars, item.asset, item.bar);
      else if (item.kind === "series") append(days, item.key, item.day);
      else if (item.kind === "spot") this.recordSpot(item.asset, item.spot);
      else figures.push(item.figure);
    }
    // A far-future stamp another process stored before this rule (or with a fast clock) is left out here too.
    this.cache.record(this.notFuture(readings).sort((a, b) => a.observedAt - b.observedAt));
    const now = this.clock.now();
    for (const [asset, list] of bars) this.appendBars(asset, list, now);
    for (const [key, list] of days) this.recordSeries(key, this.pastDays(list));
    this.figures.record(this.notFuture(figures).sort((a, b) => a.observedAt - b.observedAt));
  }

  /**
   * Merges a series' days. BTC_NASDAQ_CORR is the Nasdaq-100's 30-day correlation with BTC's
   * closes, two series from two pollers (Yahoo, the spot exchange): it is derived here from what
   * is known of both, whichever arrived last and from whichever replica, so neither source's
   * outage holds back the other's series and every replica reads the same figure.
   */
  private recordSeries(key: DailySeriesKey, days: readonly DailyValue[]): void {
    this.macro.record(key, days);
    if (key !== "NASDAQ" && key !== "BTC") return;
    const newest = this.macro.newestCorrelation("NASDAQ");
    if (newest) this.cache.record([{ key: "BTC_NASDAQ_CORR", value: newest.value, observedAt: newest.observedAt, source: NASDAQ_CORR_SOURCE }]);
  }

  /** What a provider could have observed by now: stamps past the tolerance are dropped, not kept. */
  private notFuture<T extends { readonly observedAt: number }>(items: readonly T[]): T[] {
    const latest = this.clock.now() + FUTURE_STAMP_TOLERANCE_MS;
    return items.filter((item) => item.observedAt <= latest);
  }

  /**
   * Days that have begun: a row dated after today is a provider's error, not an observation. Kept,
   * it became the series' newest day, the store keeps a window back from its newest, so every real
   * day left it (US10Y read null on every replica, restarts included, for the row is shared).
   */
  private pastDays(days: readonly DailyValue[]): DailyValue[] {
    const latest = this.clock.now() + FUTURE_STAMP_TOLERANCE_MS;
    return days.filter((d) => d.day <= latest);
  }

  private appendBars(asset: Asset, bars: readonly Candle[], now: number): SignalReading[] {
    const updates = this.stores[asset].append(bars, now);
    const readings = asset === "BTC" ? updates.flatMap((u) => btcTechnicalReadings(u, this.candleSource.id)) : [];
    this.cache.record(readings);
    return readings;
  }

  /** Publishes a poll's observations with the series days its provider delivered meanwhile. */
  private async share(items: readonly LiveObservation[]): Promise<void> {
    if (!this.publisher) return;
    const batch = this.queued.concat(items);
    this.queued = [];
    await this.publisher.publish(batch);
  }

  latestReadings(at: number): ReadonlyMap<SignalKey, SignalReading> {
    return this.cache.latest(at);
  }

  readingsBetween(key: SignalKey, from: number, to: number): readonly SignalReading[] {
    return this.cache.between(key, from, to);
  }

  candles(asset: Asset, interval: CandleInterval, at: number, limit: number): readonly Candle[] {
    // Daily bars are not kept live yet (the 2,400 hourly bars hold 100 days).
    return interval === "1d" ? [] : this.stores[asset].candles(interval, at, limit);
  }

  technicals(asset: Asset, interval: "1h" | "4h", at: number): ObservedTechnicals | null {
    return this.stores[asset].technicals(interval, at);
  }

  spotPrice(asset: Asset, at: number): ObservedValue | null {
    const polled = this.spots.get(asset);
    const bar = this.stores[asset].technicals("1h", at);
    const candidates = [polled, bar && { value: bar.values.close, observedAt: bar.observedAt }].filter(
      (c): c is ObservedValue => c !== undefined && c !== null && c.observedAt <= at && at - c.observedAt <= SPOT_MAX_AGE_MS,
    );
    return candidates.sort((a, b) => b.observedAt - a.observedAt)[0] ?? null;
  }

  private recordSpot(asset: Asset, spot: ObservedValue): void {
    const known = this.spots.get(asset);
    if (!known || spot.observedAt > known.observedAt) this.spots.set(asset, spot);
  }

  assetFeatures(asset: Asset, at: number): AssetFeatures {
    const btc = this.technicals("BTC", "1h", at);
    const funding = asset === "BTC" ? this.cache.latest(at).get("BTC_FUNDING_RATE") : undefined;
    return buildAssetFeatures(
      {
        asset,
        tech1h: this.technicals(asset, "1h", at),
        tech4h: this.technicals(asset, "4h", at),
        funding: funding ? { value: funding.value, observedAt: funding.observedAt } : null,
        btcPrice: btc ? { value: btc.values.close, observedAt: btc.observedAt } : null,
        tvlTrend: null,
      },
      at,
    );
  }

  /**
   * Where the providers hand over daily history: the ReadingProvider port carries readings only,
   * and the series must arrive from inside the ResilientProvider-wrapped poll.
   */
  get macroSeriesSink(): DailySeriesSink {
    return this.seriesSink;
  }

  macroSeries(key: MacroSeriesKey, at: number): MacroSeriesPoint | null {
    return this.macro.at(key, at);
  }

  networkFigures(at: number): NetworkFigures {
    return this.figures.figuresAt(at);
  }

  calendarEvents(): readonly CalendarEvent[] {
    return this.calendar;
  }

  span(): FeedSpan {
    const lastBarClose = Object.fromEntries(
      ASSETS.map((a) => {
        const t = this.stores[a].lastOpenTime;
        return [a, t === null ? null : t + 3_600_000];
      }),
    );
    return { lastBarClose: lastBarClose as Record<Asset, number | null> };
  }
}

/** Adds to the list under `key` in place (a start-up load applies thousands of rows at once). */
function append<K, V>(lists: Map<K, V[]>, key: K, value: V): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}
