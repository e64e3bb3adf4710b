import type { Regime, TaoRuling } from "../market/vocabulary.js";
import type { Candle } from "../signals/reading.js";
import type { Asset } from "../signals/signal-keys.js";
import type { SignalAtEntry } from "./trade.js";

/**
 * Everything a Ghost Trader needs at one closed bar. It is deliberately a plain value assembled by
 * the caller (actor, backtest, test) from the judiciary, council, regime and indicator outputs, so
 * this module depends on none of them.
 */
export interface BarInput {
  readonly asset: Asset;
  /** The bar that just closed; decisions are made at its close. */
  readonly candle: Candle;
  readonly judiciary: JudiciaryView | null;
  /** The asset's council (BTC, SOL, TAO); null when none exists or the asset has none (ETH). */
  readonly council: CouncilView | null;
  readonly regime: RegimeView | null;
  readonly indicators: IndicatorView;
  readonly liquidity: LiquidityView;
  readonly extras: BarExtras;
}

export interface JudiciaryView {
  readonly ruling: TaoRuling;
  /** The published, calibrated confidence (issue 16): what the gates read. */
  readonly confidence: number;
  /** The engine's own figure, for reports that show what calibration changed; absent on old verdicts. */
  readonly rawConfidence?: number;
  readonly verdictId: string;
  readonly signals: readonly SignalAtEntry[];
}

export interface CouncilView {
  /** The council session's ruling and calibrated confidence, in either mode: what the council gate checks. */
  readonly ruling: TaoRuling;
  readonly confidence: number;
  readonly sessionId: string;
}

export interface RegimeView {
  readonly regime: Regime;
  readonly confidence: number;
  readonly breakoutImminent: boolean;
}

export interface IndicatorView {
  readonly rsi1h: number | null;
  readonly ema200: number | null;
  /** Last-1 h volume / mean hourly volume of the previous 24 h. */
  readonly volumeRatio: number | null;
  /** Lowest RSI(1 h) of the last 12 bars: tells a pullback (mode B) from a trend entry. */
  readonly rsiLow12h: number | null;
}

export type LiquidityStatus = "SUFFICIENT" | "INSUFFICIENT" | "UNKNOWN";

export interface LiquidityView {
  readonly status: LiquidityStatus;
  /** USD depth within ±0.5 % of mid; null in replay (no order book) or when the probe failed. */
  readonly depthUsd: number | null;
  /**
   * Whether depth is measured here: live mode with an order book. Replay has none, so gate 0
   * checks only its volume half there (DECISIONS 7); live, a depth not measured (the probe
   * failed, or has not answered yet) closes gate 0 rather than waving the entry through.
   */
  readonly live: boolean;
}

export interface BarExtras {
  readonly assetBtcRatio: number | null;
  readonly networkHealth: "HEALTHY" | "DEGRADED" | "UNKNOWN" | null;
}
