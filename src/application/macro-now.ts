import { buildMacroCorrelation, type MacroCorrelation } from "../domain/signals/macro-correlation.js";
import { MACRO_SERIES_KEYS, type MacroSeriesKey, type MacroSeriesPoint } from "../domain/signals/macro-series.js";
import type { MarketFeed } from "../feeds/market-feed.js";

/** The macro breakdown as of market time `at`: what GET /v1/macro/correlation serves and macro.alert watches. */
export function macroCorrelationAt(feed: MarketFeed, at: number): MacroCorrelation {
  const series = Object.fromEntries(MACRO_SERIES_KEYS.map((k) => [k, feed.macroSeries(k, at)])) as Record<MacroSeriesKey, MacroSeriesPoint | null>;
  return buildMacroCorrelation({ mode: feed.mode, at, series, btcNasdaqCorr: feed.latestReadings(at).get("BTC_NASDAQ_CORR") ?? null });
}
