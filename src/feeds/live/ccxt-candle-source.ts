import { z } from "zod";
import type { Candle } from "../../domain/signals/reading.js";
import type { Asset } from "../../domain/signals/signal-keys.js";
import type { CandleSource, DailyCandleSource } from "./candle-source.js";
import { ccxtProviderError } from "./ccxt-error.js";
import { ProviderError } from "./provider-error.js";

/** The slice of a ccxt Exchange this adapter uses (kept narrow so tests and venues can vary). */
export interface OhlcvExchange {
  fetchOHLCV(symbol: string, timeframe?: string, since?: number, limit?: number): Promise<unknown>;
}

/** ccxt's OHLCV row: [timestamp, open, high, low, close, volume]. */
const ohlcvSchema = z.array(
  z.tuple([z.number().int(), z.number().positive(), z.number().positive(), z.number().positive(), z.number().positive(), z.number().nonnegative()]),
);

const SYMBOLS: Record<Asset, string> = { BTC: "BTC/USDT", ETH: "ETH/USDT", SOL: "SOL/USDT", TAO: "TAO/USDT" };

/** Hourly candles, and daily ones, from an exchange through ccxt (Binance spot in production). */
export class CcxtCandleSource implements CandleSource, DailyCandleSource {
  constructor(
    readonly id: string,
    private readonly exchange: OhlcvExchange,
  ) {}

  fetchHourly(asset: Asset, since: number | null, limit: number): Promise<readonly Candle[]> {
    return this.fetchBars(asset, "1h", since, limit);
  }

  fetchDaily(asset: Asset, limit: number): Promise<readonly Candle[]> {
    return this.fetchBars(asset, "1d", null, limit);
  }

  private async fetchBars(asset: Asset, timeframe: "1h" | "1d", since: number | null, limit: number): Promise<readonly Candle[]> {
    let raw: unknown;
    try {
      raw = await this.exchange.fetchOHLCV(SYMBOLS[asset], timeframe, since ?? undefined, limit);
    } catch (err) {
      throw ccxtProviderError(this.id, err);
    }
    const parsed = ohlcvSchema.safeParse(raw);
    if (!parsed.success) throw new ProviderError(this.id, "malformed", "OHLCV rows do not match ccxt's shape");
    return parsed.data.map(([t, o, h, l, c, v]) => ({ t, o, h, l, c, v }));
  }
}
