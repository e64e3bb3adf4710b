/** Shared vocabulary of SPEC.md ("Shared vocabulary") and DECISIONS 4. */
export const RULINGS = ["STRONG_BUY", "BUY", "ACCUMULATE", "HOLD", "REDUCE", "SELL", "STRONG_SELL"] as const;
export type Ruling = (typeof RULINGS)[number];

export const TAO_RULINGS = [...RULINGS, "AVOID"] as const;
export type TaoRuling = (typeof TAO_RULINGS)[number];

export const SOL_RULINGS = ["STRONG_BUY", "BUY", "ACCUMULATE", "HOLD", "REDUCE", "AVOID"] as const;
export type SolRuling = (typeof SOL_RULINGS)[number];

export const REGIMES = [
  "BULL_TRENDING",
  "BEAR_TRENDING",
  "HIGH_VOLATILITY",
  "DISTRIBUTION",
  "WHALE_ACCUMULATION",
  "RISK_ON",
  "LOW_VOLATILITY",
  "ACCUMULATION",
] as const;
export type Regime = (typeof REGIMES)[number];

export const EVENT_TYPES = ["verdict.new", "council.new", "regime.change", "ghost.signal", "macro.alert"] as const;
export type EventType = (typeof EVENT_TYPES)[number];
