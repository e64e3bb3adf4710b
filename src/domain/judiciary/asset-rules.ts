import type { Asset, SignalKey } from "../signals/signal-keys.js";
import { linear, rule, type ContributionRule } from "./contribution-rule.js";
import { BTC_RULES, context, macdContribution, rsiContribution, volatilityContribution } from "./btc-rules.js";

/**
 * Per-asset features for the ETH, SOL and TAO engines (DECISIONS 7). The feature producer uses
 * these keys; a feature without a real source is passed as DEAD, never invented.
 */
export const ASSET_FEATURES = [
  "RSI_1H",
  "RSI_4H",
  "EMA200_DISTANCE",
  "MACD_HIST",
  "VOLUME_RATIO",
  "REALIZED_VOL",
  "FUNDING_RATE",
  "BTC_RATIO_TREND",
  "DEFI_TVL_TREND",
] as const;
export type AssetFeature = (typeof ASSET_FEATURES)[number];

/** Macro and sentiment signals every asset's engine reads as well (DECISIONS 7). */
export const SHARED_SIGNALS = ["US10Y", "DXY", "GOLD", "BTC_NASDAQ_CORR", "FEAR_GREED_INDEX", "BTC_DOMINANCE"] as const satisfies readonly SignalKey[];

const FEATURE_RULES: Readonly<Record<AssetFeature, ContributionRule>> = {
  RSI_1H: rule("RSI(14) 1h", "", "oversold below 40 (bullish), overbought above 60 (bearish)", rsiContribution),
  RSI_4H: rule("RSI(14) 4h", "", "oversold below 40 (bullish), overbought above 60 (bearish)", rsiContribution),
  EMA200_DISTANCE: rule("Distance to EMA 200", "%", "price above the 200 EMA is an uptrend (bullish); full weight at ±5%", linear(0, 5)),
  MACD_HIST: rule("MACD histogram", " USD", "positive histogram is rising momentum (bullish)", macdContribution),
  VOLUME_RATIO: context("Volume ratio", "x", "volume confirms moves but has no direction alone; context only"),
  REALIZED_VOL: rule("Realized volatility (30d)", "%", "volatility above 80% annualized is risk (bearish)", volatilityContribution(80, 140)),
  FUNDING_RATE: rule("Funding rate", "% / 8h", "crowded longs pay high funding (contrarian bearish); neutral at 0.01%", linear(0.01, 0.05, -1)),
  BTC_RATIO_TREND: rule("Ratio to BTC (7d)", "%", "gaining against BTC is relative strength (bullish); full weight at ±10%", linear(0, 10)),
  DEFI_TVL_TREND: rule("DeFi TVL (7d)", "%", "capital flowing into the ecosystem (bullish); full weight at ±15%", linear(0, 15)),
};

function sharedRules(): Record<string, ContributionRule> {
  const out: Record<string, ContributionRule> = {};
  for (const key of SHARED_SIGNALS) out[key] = BTC_RULES[key];
  return out;
}

function assetTable(asset: Exclude<Asset, "BTC">): Readonly<Record<string, ContributionRule>> {
  const features: Record<string, ContributionRule> = { ...FEATURE_RULES };
  // DeFi TVL trend is a SOL feature only; for ETH and TAO it is not part of the picture at all.
  if (asset !== "SOL") delete features.DEFI_TVL_TREND;
  return { ...features, ...sharedRules() };
}

// Built once: the engine runs every 5 minutes per asset and in benchmarks, so no per-call copies.
const TABLES: Readonly<Record<Asset, Readonly<Record<string, ContributionRule>>>> = {
  BTC: BTC_RULES,
  ETH: assetTable("ETH"),
  SOL: assetTable("SOL"),
  TAO: assetTable("TAO"),
};

/** The rule table of one asset's Judiciary Engine: BTC reads the 27 signals; others their features plus shared ones. */
export function rulesFor(asset: Asset): Readonly<Record<string, ContributionRule>> {
  return TABLES[asset];
}

/** Rules of every key any engine or agent can read (agents of all councils look keys up here). */
export const ALL_RULES: Readonly<Record<string, ContributionRule>> = { ...FEATURE_RULES, ...BTC_RULES };
