import type { FeatureReading } from "../../../src/domain/judiciary/feature-reading.js";
import type { SignalStatus } from "../../../src/domain/signals/signal-keys.js";

/** Values at which every BTC rule is neutral (contribution 0). */
export const NEUTRAL_BTC: Readonly<Record<string, number>> = {
  SOPR: 1,
  MVRV_ZSCORE: 3,
  NUPL: 0.375,
  HASH_RIBBON: 1,
  EXCHANGE_NETFLOW: 0,
  US10Y: 4,
  DXY: 100,
  GOLD: 2000,
  BTC_NASDAQ_CORR: 0.3,
  PUT_CALL_RATIO: 0.7,
  DVOL: 40,
  OPTIONS_OI: 300_000,
  STABLECOIN_MINT: 0,
  WHALE_FLOW: 0,
  ENTITY_PRESSURE: 0,
  LIQ_DIRECTIONAL_BIAS: 0,
  LIQ_CASCADE_RISK: 1,
  LIQ_PROXIMITY_ALERT: 0,
  BTC_RSI: 50,
  BTC_EMA200_DISTANCE: 0,
  BTC_MACD_HIST: 0,
  BTC_REALIZED_VOL: 40,
  BTC_VOLUME_RATIO: 1,
  BTC_FUNDING_RATE: 0.01,
  BTC_OPEN_INTEREST: 90_000,
  BTC_DOMINANCE: 55,
  FEAR_GREED_INDEX: 50,
};

/** Values at which every directional BTC rule is fully bullish. */
export const BULLISH_BTC: Readonly<Record<string, number>> = {
  ...NEUTRAL_BTC,
  SOPR: 0.9,
  MVRV_ZSCORE: -1,
  NUPL: -0.1,
  HASH_RIBBON: 1.1,
  EXCHANGE_NETFLOW: -20_000,
  US10Y: 2.5,
  DXY: 90,
  PUT_CALL_RATIO: 0.1,
  STABLECOIN_MINT: 5_000,
  WHALE_FLOW: 10_000,
  ENTITY_PRESSURE: 3_000,
  LIQ_DIRECTIONAL_BIAS: -1,
  BTC_RSI: 15,
  BTC_EMA200_DISTANCE: 8,
  BTC_MACD_HIST: 500,
  BTC_FUNDING_RATE: -0.05,
  FEAR_GREED_INDEX: 5,
};

/** Values at which every directional BTC rule is fully bearish. */
export const BEARISH_BTC: Readonly<Record<string, number>> = {
  ...NEUTRAL_BTC,
  SOPR: 1.1,
  MVRV_ZSCORE: 8,
  NUPL: 0.9,
  HASH_RIBBON: 0.9,
  EXCHANGE_NETFLOW: 20_000,
  US10Y: 5.5,
  DXY: 110,
  PUT_CALL_RATIO: 1.5,
  DVOL: 120,
  STABLECOIN_MINT: -5_000,
  WHALE_FLOW: -10_000,
  ENTITY_PRESSURE: -3_000,
  LIQ_DIRECTIONAL_BIAS: 1,
  LIQ_CASCADE_RISK: 5,
  LIQ_PROXIMITY_ALERT: 1,
  BTC_RSI: 85,
  BTC_EMA200_DISTANCE: -8,
  BTC_MACD_HIST: -500,
  BTC_REALIZED_VOL: 100,
  BTC_FUNDING_RATE: 0.1,
  FEAR_GREED_INDEX: 95,
};

export function readings(values: Readonly<Record<string, number>>, status: SignalStatus = "LIVE", overrides: Readonly<Record<string, SignalStatus>> = {}): FeatureReading[] {
  return Object.entries(values).map(([key, value]) => {
    const s = overrides[key] ?? status;
    return { key, value: s === "DEAD" ? null : value, status: s };
  });
}
