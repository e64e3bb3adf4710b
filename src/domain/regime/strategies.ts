import type { Regime } from "../market/vocabulary.js";

export interface StrategyFit {
  readonly compatible: readonly string[];
  readonly incompatible: readonly string[];
}

/**
 * Strategy families that suit (or fight) each regime, for `compatible_strategies` and
 * `incompatible_strategies`. Names follow DECISIONS 4's entry modes (trend continuation,
 * pullback, breakout) plus the common families a trader would map them to.
 */
export const STRATEGIES_BY_REGIME: Readonly<Record<Regime, StrategyFit>> = {
  BULL_TRENDING: {
    compatible: ["TREND_FOLLOWING", "MOMENTUM", "PULLBACK_BUY"],
    incompatible: ["MEAN_REVERSION_SHORT", "COUNTER_TREND_SHORT"],
  },
  BEAR_TRENDING: {
    compatible: ["CAPITAL_PRESERVATION", "HEDGING", "SHORT_MOMENTUM"],
    incompatible: ["DIP_BUYING", "BREAKOUT_LONG", "TREND_FOLLOWING_LONG"],
  },
  HIGH_VOLATILITY: {
    compatible: ["REDUCED_SIZE", "WIDE_STOPS", "VOLATILITY_HARVESTING"],
    incompatible: ["TIGHT_STOP_SCALPING", "LEVERAGED_TREND_FOLLOWING"],
  },
  DISTRIBUTION: {
    compatible: ["PROFIT_TAKING", "HEDGING", "RANGE_TRADING"],
    incompatible: ["BREAKOUT_LONG", "ACCUMULATION_BUYING"],
  },
  WHALE_ACCUMULATION: {
    compatible: ["ACCUMULATION_BUYING", "PULLBACK_BUY", "POSITION_BUILDING"],
    incompatible: ["SHORT_MOMENTUM", "COUNTER_TREND_SHORT"],
  },
  RISK_ON: {
    compatible: ["MOMENTUM", "TREND_FOLLOWING", "BREAKOUT_LONG"],
    incompatible: ["CAPITAL_PRESERVATION", "SHORT_MOMENTUM"],
  },
  LOW_VOLATILITY: {
    compatible: ["BREAKOUT", "RANGE_TRADING", "OPTION_PREMIUM_BUYING"],
    incompatible: ["MOMENTUM", "WIDE_STOPS"],
  },
  ACCUMULATION: {
    compatible: ["ACCUMULATION_BUYING", "RANGE_TRADING", "MEAN_REVERSION"],
    incompatible: ["SHORT_MOMENTUM", "BREAKOUT_SHORT"],
  },
};
