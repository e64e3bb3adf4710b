import type { Candle } from "../../domain/signals/reading.js";
import type { Asset } from "../../domain/signals/signal-keys.js";

/** Port for live hourly candles (an exchange through ccxt, or any venue with klines). */
export interface CandleSource {
  readonly id: string;
  /** Hourly bars opening at or after `since` (all recent ones when null), oldest first. */
  fetchHourly(asset: Asset, since: number | null, limit: number): Promise<readonly Candle[]>;
}

/** Port for an asset's daily candles (bars open at 00:00 UTC), the newest `limit`, oldest first. */
export interface DailyCandleSource {
  readonly id: string;
  fetchDaily(asset: Asset, limit: number): Promise<readonly Candle[]>;
}
