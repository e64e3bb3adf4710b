import type { MarketFeed } from "../feeds/market-feed.js";
import type { Asset } from "../domain/signals/signal-keys.js";
import type { Regime } from "../domain/market/vocabulary.js";
import type { FeatureReading, JudiciaryInput, MultiplierLookup } from "../domain/judiciary/feature-reading.js";
import type { AssetFeature } from "../domain/judiciary/asset-rules.js";
import type { FeatureReading as ObservedFeature } from "../domain/signals/asset-features.js";
import type { CouncilAsset, CouncilInput } from "../domain/council/council-types.js";
import { buildSignalsSnapshot } from "../domain/signals/snapshot.js";
import { calendarStatus, ACTIVE_AFTER_MS, type CalendarEvent } from "../domain/signals/macro-calendar.js";
import { signalStatus } from "../domain/signals/signal-status.js";
import type { NetworkFigures } from "../domain/signals/network-figures.js";
import { roundOrNull } from "../domain/numbers/round-to.js";

const HOUR = 3_600_000;
const WEEK = 7 * 24 * HOUR;

/** The 27 public signals as engine readings, with the status the signals snapshot gives them. */
function signalReadings(feed: MarketFeed, at: number): FeatureReading[] {
  const snapshot = buildSignalsSnapshot({ mode: feed.mode, at, readings: feed.latestReadings(at), calendar: calendarStatus([], at) });
  return snapshot.signals.map((s) => ({ key: s.key, value: s.value, status: s.status }));
}

const reading = (key: AssetFeature, f: ObservedFeature): FeatureReading => ({ key, value: f.value, status: f.status });

/**
 * Per-asset features (DECISIONS 7) under the keys of the engines' rule tables. Realized
 * volatility comes from the 1 h technicals; the ratio trend is the 7-day change of the asset/BTC
 * price ratio, both instants read as of their own time. Anything without a value is DEAD.
 */
export function assetFeatureReadings(feed: MarketFeed, asset: Asset, at: number): FeatureReading[] {
  const f = feed.assetFeatures(asset, at);
  const tech = feed.technicals(asset, "1h", at);
  const vol = tech?.values.realizedVolPct ?? null;
  const volReading: FeatureReading =
    vol === null || tech === null ? { key: "REALIZED_VOL", value: null, status: "DEAD" } : { key: "REALIZED_VOL", value: vol, status: signalStatus(tech.observedAt, HOUR, at) };
  const before = asset === "BTC" ? null : feed.assetFeatures(asset, at - WEEK).ratioToBtc;
  const trend =
    f.ratioToBtc.value !== null && before?.value !== null && before !== null && before.value !== null && before.value > 0
      ? { key: "BTC_RATIO_TREND", value: ((f.ratioToBtc.value - before.value) / before.value) * 100, status: f.ratioToBtc.status }
      : { key: "BTC_RATIO_TREND", value: null, status: "DEAD" as const };
  return [
    reading("RSI_1H", f.rsi1h),
    reading("RSI_4H", f.rsi4h),
    reading("EMA200_DISTANCE", f.ema200DistancePct),
    reading("MACD_HIST", f.macdHistogram),
    reading("VOLUME_RATIO", f.volumeRatio),
    volReading,
    reading("FUNDING_RATE", f.fundingRatePct),
    trend,
    reading("DEFI_TVL_TREND", f.defiTvlTrendPct),
  ];
}

/**
 * What the asset's Judiciary Engine reads at market time `at`: BTC the 27 signals, the others
 * their features plus the 27 (the rule table picks the shared macro and sentiment ones).
 */
export function judiciaryInputAt(feed: MarketFeed, asset: Asset, at: number, regime: Regime | null, multiplier?: MultiplierLookup): JudiciaryInput {
  const signals = signalReadings(feed, at);
  const readings = asset === "BTC" ? signals : [...assetFeatureReadings(feed, asset, at), ...signals];
  return { readings, regime, price: feed.assetFeatures(asset, at).price.value, ...(multiplier ? { multiplier } : {}) };
}

/**
 * The asset's price if it is LIVE at `at` (its last hourly bar at most two bars old), else null.
 * A ruling is a call on the market now: without a current price there is nothing to call, and a
 * ruling made then could never be graded. STALE and DEAD prices give null.
 */
export function livePriceAt(feed: MarketFeed, asset: Asset, at: number): number | null {
  const price = feed.assetFeatures(asset, at).price;
  return price.status === "LIVE" ? price.value : null;
}

/** Hours until the next TIER1 release (0 while one is active), or null when none is scheduled. */
export function hoursUntilTier1(events: readonly CalendarEvent[], at: number): number | null {
  const next = events.find((e) => e.tier === "TIER1" && e.at + ACTIVE_AFTER_MS >= at);
  if (next === undefined) return null;
  return Math.max(0, (next.at - at) / HOUR);
}

/** Range of the last closed hourly bar, (high − low) / low × 100. */
function lastHourRangePct(feed: MarketFeed, asset: Asset, at: number): number | null {
  const bar = feed.candles(asset, "1h", at, 1)[0];
  return bar && bar.l > 0 ? ((bar.h - bar.l) / bar.l) * 100 : null;
}

/** A network or sector figure as an agent input: the feed only hands over fresh ones, so LIVE or DEAD. */
const figure = (key: string, value: number | null): FeatureReading => ({ key, value, status: value === null ? "DEAD" : "LIVE" });

/** The council-only inputs from the feed's network and sector figures (live mode; null in replay). */
function figureReadings(asset: CouncilAsset, n: NetworkFigures): FeatureReading[] {
  if (asset === "SOL") {
    return [
      figure("NETWORK_TPS", n.solNetworkTps),
      figure("NETWORK_TPS_TREND", n.solNetworkTpsChangePct),
      figure("STAKING_PARTICIPATION", n.solStakingParticipationPct),
    ];
  }
  if (asset === "TAO") {
    return [
      figure("AI_SENTIMENT", n.aiSector?.change24hPct ?? null),
      figure("TAO_STAKING_RATIO", n.taoStakingRatioPct),
      figure("TAO_STAKING_RATIO_TREND", n.taoStakingRatioChange7dPct),
      figure("TAO_SUBNET_COUNT", n.taoSubnetCount),
      figure("TAO_SUBNET_COUNT_TREND", n.taoSubnetCountChange30dPct),
    ];
  }
  return [];
}

/**
 * The market picture a council deliberates on. Agents read from the 27 signals, the asset's
 * features and, in live mode, the network and sector figures (SOL TPS and staking, the AI
 * sector, TAO staking and subnets); inputs without a source (outages, memecoins, ...) are absent,
 * which the agents treat as DEAD. Replay has no order-book depth: liquidity is UNKNOWN.
 */
export function councilInputAt(feed: MarketFeed, asset: CouncilAsset, at: number, regime: Regime | null): CouncilInput {
  const f = feed.assetFeatures(asset, at);
  const n = feed.networkFigures(at);
  const signals = asset === "BTC" ? signalReadings(feed, at) : [...assetFeatureReadings(feed, asset, at), ...signalReadings(feed, at)];
  const readings = [...signals, ...figureReadings(asset, n)];
  const events = feed.calendarEvents();
  const base = {
    asset,
    at,
    regime,
    price: f.price.value,
    readings,
    calendar: { status: calendarStatus(events, at).status, hoursUntilTier1: hoursUntilTier1(events, at) },
  };
  if (asset === "TAO") {
    const ai = n.aiSector;
    return {
      ...base,
      snapshotSignals: { tao_price: f.price.value, rsi_1h: shown(f.rsi1h.value), ema_200: shown(f.ema200.value) },
      tao: {
        liquidityStatus: "UNKNOWN",
        lastHourRangePct: lastHourRangePct(feed, asset, at),
        volumeRatio: f.volumeRatio.value,
        // The overhang flag needs the sector's own percentile, so only once its history is long enough.
        aiSentiment: ai !== null && ai.percentile20 !== null ? { value: ai.change24hPct, percentile20: ai.percentile20 } : null,
      },
    };
  }
  if (asset === "SOL") {
    return {
      ...base,
      // Replay has no TPS or staking series: null there, never invented.
      snapshotSignals: {
        sol_price: f.price.value,
        rsi_1h: shown(f.rsi1h.value),
        ema_200: shown(f.ema200.value),
        sol_network_tps: n.solNetworkTps,
        sol_defi_tvl_trend: shown(f.defiTvlTrendPct.value),
        sol_staking_participation: n.solStakingParticipationPct,
      },
    };
  }
  return { ...base, snapshotSignals: { btc_price: f.price.value, rsi_1h: shown(f.rsi1h.value), ema_200: shown(f.ema200.value) } };
}

/**
 * A snapshot figure as published (2 decimals): RSI, EMA-200 and a % trend are read by people, and
 * 43.219876543 claims a precision an indicator of hourly closes does not have. The rules read
 * the readings above, unrounded; prices stay as the exchange quotes them.
 */
function shown(x: number | null): number | null {
  return roundOrNull(x, 2);
}
