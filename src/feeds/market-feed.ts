import type { AssetFeatures, ObservedTechnicals, ObservedValue } from "../domain/signals/asset-features.js";
import type { FeedMode } from "../domain/signals/catalogue.js";
import type { CalendarEvent } from "../domain/signals/macro-calendar.js";
import type { Candle, CandleInterval, SignalReading } from "../domain/signals/reading.js";
import type { MacroSeriesKey, MacroSeriesPoint } from "../domain/signals/macro-series.js";
import type { NetworkFigures } from "../domain/signals/network-figures.js";
import type { Asset, SignalKey } from "../domain/signals/signal-keys.js";

export interface FeedSpan {
  /** Close time of the last hourly bar of each asset (replay: end of the bundled data). */
  readonly lastBarClose: Readonly<Record<Asset, number | null>>;
}

/**
 * What the engines and routes read about the market. Replay (bundled history) and live (public
 * APIs, polled into memory) implement it alike. Every read is "as of" a market time `at`, so
 * replay answers are deterministic and nothing after `at` is ever visible. Reads are synchronous:
 * a live feed answers from what its pollers last fetched.
 */
export interface MarketFeed {
  readonly mode: FeedMode;
  /** The most recent reading of every signal observed at or before `at`; signals never observed are absent. */
  latestReadings(at: number): ReadonlyMap<SignalKey, SignalReading>;
  /** Readings of one signal observed in [from, to], oldest first. */
  readingsBetween(key: SignalKey, from: number, to: number): readonly SignalReading[];
  /** Up to `limit` bars closed at or before `at`, oldest first. */
  candles(asset: Asset, interval: CandleInterval, at: number, limit: number): readonly Candle[];
  /** Indicator values after the last bar closed at or before `at`; null before the first bar. */
  technicals(asset: Asset, interval: "1h" | "4h", at: number): ObservedTechnicals | null;
  /**
   * The asset's latest traded price as of `at`. Live: the close so far of the hourly bar still
   * forming, as the last candle poll saw it (or a bar's close at its close time), null once
   * older than SPOT_MAX_AGE_MS. Replay: the last closed hourly bar's close (the bundled history
   * has no finer price), null when a bar after it is missing (an outage in the history). Null
   * before any price.
   */
  spotPrice(asset: Asset, at: number): ObservedValue | null;
  assetFeatures(asset: Asset, at: number): AssetFeatures;
  macroSeries(key: MacroSeriesKey, at: number): MacroSeriesPoint | null;
  /**
   * Per-asset network and sector figures (SOL throughput and staking, the AI sector) as of `at`,
   * each null unless observed at most twice its refresh interval before `at`. Replay: all null.
   */
  networkFigures(at: number): NetworkFigures;
  /** US economic calendar events, sorted by time. */
  calendarEvents(): readonly CalendarEvent[];
  span(): FeedSpan;
}
