import { buildAssetFeatures, type AssetFeatures, type ObservedTechnicals } from "../../domain/signals/asset-features.js";
import type { CalendarEvent } from "../../domain/signals/macro-calendar.js";
import type { MacroSeriesKey, MacroSeriesPoint } from "../../domain/signals/macro-series.js";
import type { Candle, CandleInterval, SignalReading } from "../../domain/signals/reading.js";
import { ASSETS, type Asset, type SignalKey } from "../../domain/signals/signal-keys.js";
import type { Clock } from "../../domain/time/clock.js";
import type { NetworkFigure, NetworkFigures } from "../../domain/signals/network-figures.js";
import type { FeedSpan, MarketFeed } from "../market-feed.js";
import type { CandleSource } from "./candle-source.js";
import { btcTechnicalReadings, KEPT_BARS, LiveCandleStore } from "./live-candle-store.js";
import { LiveMacroSeriesStore, type DailySeriesSink } from "./live-macro-series.js";
import { FigureCache } from "./figure-cache.js";
import { ProviderError } from "./provider-error.js";
import { ReadingCache } from "./reading-cache.js";
import type { PollResult, ResilientProvider } from "./resilient-provider.js";

/**
 * MARKET_FEED=live: answers from what the pollers last fetched. The schedule (the market-data
 * actor's reminders) calls `pollProvider` and `pollCandles`; reads never wait on the network.
 * The daily macro series come from the FRED and Yahoo adapters through `macroSeriesSink`;
 * per-asset funding has no live adapter yet, so it reads as absent (DEAD).
 */
export class LiveMarketFeed implements MarketFeed {
  readonly mode = "live" as const;
  private readonly cache = new ReadingCache();
  private readonly stores = Object.fromEntries(ASSETS.map((a) => [a, new LiveCandleStore()])) as Record<Asset, LiveCandleStore>;
  private readonly macro = new LiveMacroSeriesStore();
  private readonly figures = new FigureCache();

  constructor(
    private readonly clock: Clock,
    private readonly candleSource: CandleSource,
    private readonly calendar: readonly CalendarEvent[],
  ) {}

  async pollProvider(provider: ResilientProvider): Promise<PollResult> {
    const result = await provider.poll();
    if (result.ok) this.cache.record(result.readings);
    return result;
  }

  /** Polls a network/sector figure provider (Solana RPC, CoinGecko categories). */
  async pollFigures(provider: ResilientProvider<NetworkFigure>): Promise<PollResult<NetworkFigure>> {
    const result = await provider.poll();
    if (result.ok) this.figures.record(result.readings);
    return result;
  }

  /** Fetches bars newer than the last stored one; BTC bars also yield the 5 technical signals. */
  async pollCandles(asset: Asset): Promise<PollResult> {
    const store = this.stores[asset];
    const since = store.lastOpenTime;
    try {
      const bars = await this.candleSource.fetchHourly(asset, since === null ? null : since + 1, KEPT_BARS);
      const updates = store.append(bars, this.clock.now());
      const readings = asset === "BTC" ? updates.flatMap((u) => btcTechnicalReadings(u, this.candleSource.id)) : [];
      this.cache.record(readings);
      return { ok: true, readings };
    } catch (err) {
      const error =
        err instanceof ProviderError ? err : new ProviderError(this.candleSource.id, "network", err instanceof Error ? err.message : "failed");
      return { ok: false, error };
    }
  }

  latestReadings(at: number): ReadonlyMap<SignalKey, SignalReading> {
    return this.cache.latest(at);
  }

  readingsBetween(key: SignalKey, from: number, to: number): readonly SignalReading[] {
    return this.cache.between(key, from, to);
  }

  candles(asset: Asset, interval: CandleInterval, at: number, limit: number): readonly Candle[] {
    // Daily bars are not kept live yet (1,000 hourly bars hold only ~41 days).
    return interval === "1d" ? [] : this.stores[asset].candles(interval, at, limit);
  }

  technicals(asset: Asset, interval: "1h" | "4h", at: number): ObservedTechnicals | null {
    return this.stores[asset].technicals(interval, at);
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
    return this.macro;
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
