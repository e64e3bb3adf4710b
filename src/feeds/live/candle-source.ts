import type { Candle } from "../../domain/signals/reading.js";
import type { Asset } from "../../domain/signals/signal-keys.js";

/** Port for live hourly candles (an exchange through ccxt, or any venue with klines). */
export interface CandleSource {
  readonly id: string;
  /** Hourly bars opening at or after `since` (all recent ones when null), oldest first. */
  fetchHourly(asset: Asset, since: number | null, limit: number): Promise<readonly Candle[]>;
}
