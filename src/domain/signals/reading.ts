import type { SignalKey } from "./signal-keys.js";

/** One observation of a public signal from a real source (live provider or bundled history). */
export interface SignalReading {
  readonly key: SignalKey;
  readonly value: number;
  /** When the source observed the value (ms since epoch, market time). */
  readonly observedAt: number;
  /** Which source delivered it (e.g. "binance", "coinmetrics", "replay:fear_greed_index_daily"). */
  readonly source: string;
}

/** One OHLCV bar; `t` is the bar's open time (ms since epoch, UTC). */
export interface Candle {
  readonly t: number;
  readonly o: number;
  readonly h: number;
  readonly l: number;
  readonly c: number;
  readonly v: number;
}

export type CandleInterval = "1h" | "4h" | "1d";
