import type { SignalKey } from "../signals/signal-keys.js";
import { clampUnit, linear, rule, type ContributionRule } from "./contribution-rule.js";

/**
 * RSI: neutral between 40 and 60 (trend is read from EMA and MACD instead), leaning bullish as it
 * falls toward oversold and bearish toward overbought; full weight at 20 / 80.
 */
export function rsiContribution(v: number): number {
  if (v < 40) return clampUnit((40 - v) / 20);
  if (v > 60) return clampUnit(-(v - 60) / 20);
  return 0;
}

/**
 * MACD histogram is in quote currency, so it is scaled by price: ±0.2% of price is full weight.
 * Without a price only its sign is used, at half weight.
 */
export function macdContribution(v: number, price: number | null): number {
  if (price !== null && price > 0) return clampUnit(v / (0.002 * price));
  return v > 0 ? 0.5 : v < 0 ? -0.5 : 0;
}

/** Above a calm level, higher volatility is read as risk (bearish); below it, no lean. */
export function volatilityContribution(calm: number, full: number): (v: number) => number {
  return (v) => (v <= calm ? 0 : clampUnit(-(v - calm) / (full - calm)));
}

/** A level with no direction on its own: shown as context, weight 0 so it never moves the score. */
export function context(label: string, unit: string, why: string): ContributionRule {
  return rule(label, unit, why, () => 0, 0);
}

/** One documented rule per public signal (DECISIONS 4 units, as in the signals catalogue). */
export const BTC_RULES: Readonly<Record<SignalKey, ContributionRule>> = {
  SOPR: rule("SOPR", "", "below 1 holders sell at a loss (capitulation, bullish); above 1 profit-taking (bearish)", linear(1, 0.05, -1)),
  MVRV_ZSCORE: rule("MVRV Z-Score", "", "below 0 undervalued (bullish), above 7 overheated (bearish), neutral at 3", linear(3, 4, -1)),
  NUPL: rule("NUPL", "", "below 0 capitulation (bullish), above 0.75 euphoria (bearish)", linear(0.375, 0.375, -1)),
  HASH_RIBBON: rule("Hash Ribbon", "", "30d/60d hash rate above 1 healthy miners (bullish), below 1 capitulation (bearish)", linear(1, 0.05)),
  EXCHANGE_NETFLOW: rule("Exchange netflow", " BTC", "coins moving onto exchanges are sell pressure (bearish)", linear(0, 10_000, -1)),
  US10Y: rule("US10Y", "%", "higher yields tighten liquidity (bearish); neutral at 4%, full weight at ±1 pt", linear(4, 1, -1)),
  DXY: rule("DXY", "", "a strong dollar weighs on risk assets (bearish); neutral at 100, full weight at ±6", linear(100, 6, -1)),
  GOLD: context("Gold", " USD/oz", "level alone carries no direction; context only"),
  BTC_NASDAQ_CORR: context("BTC-Nasdaq correlation", "", "how tightly BTC trades with equities; context only"),
  PUT_CALL_RATIO: rule("Put/Call ratio", "", "more puts than usual is bearish positioning; neutral at 0.7", linear(0.7, 0.5, -1)),
  DVOL: rule("DVOL", "%", "high implied volatility prices in risk (bearish above 55)", volatilityContribution(55, 95)),
  OPTIONS_OI: context("Options OI", " BTC", "open interest level carries no direction; context only"),
  STABLECOIN_MINT: rule("Stablecoin mint (7d)", " USD mn", "new stablecoins are dry powder (bullish); full weight at ±2,000", linear(0, 2_000)),
  WHALE_FLOW: rule("Whale flow", " BTC", "large holders adding is accumulation (bullish)", linear(0, 5_000)),
  ENTITY_PRESSURE: rule("ETF net flows (7d)", " USD mn", "spot ETF inflows are institutional demand (bullish); full weight at ±1,500", linear(0, 1_500)),
  LIQ_DIRECTIONAL_BIAS: rule("Liquidation bias", "", "longs being liquidated is forced selling (bearish)", linear(0, 1, -1)),
  LIQ_CASCADE_RISK: rule("Liquidation cascade risk", "x", "liquidations above the hourly average raise cascade risk (bearish)", volatilityContribution(1, 4)),
  LIQ_PROXIMITY_ALERT: rule("Liquidation cluster nearby", "", "a cluster within 2% of price can pull price into it (bearish)", (v) => (v > 0 ? -0.5 : 0)),
  BTC_RSI: rule("RSI(14) 1h", "", "oversold below 40 (bullish), overbought above 60 (bearish), neutral between", rsiContribution),
  BTC_EMA200_DISTANCE: rule("Distance to EMA 200", "%", "price above the 200 EMA is an uptrend (bullish); full weight at ±5%", linear(0, 5)),
  BTC_MACD_HIST: rule("MACD histogram", " USD", "positive histogram is rising momentum (bullish)", macdContribution),
  BTC_REALIZED_VOL: rule("Realized volatility (30d)", "%", "volatility above 50% annualized is risk (bearish)", volatilityContribution(50, 90)),
  BTC_VOLUME_RATIO: context("Volume ratio", "x", "volume confirms moves but has no direction alone; context only"),
  BTC_FUNDING_RATE: rule("Funding rate", "% / 8h", "crowded longs pay high funding (contrarian bearish); neutral at 0.01%", linear(0.01, 0.05, -1)),
  BTC_OPEN_INTEREST: context("Open interest", " BTC", "open interest level carries no direction; context only"),
  BTC_DOMINANCE: context("BTC dominance", "%", "share of the crypto market; context only"),
  FEAR_GREED_INDEX: rule("Fear & Greed", "", "contrarian: extreme fear is bullish, extreme greed bearish; neutral at 50", linear(50, 40, -1)),
};
