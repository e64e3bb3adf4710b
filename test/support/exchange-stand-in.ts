import type { CandleSource } from "../../src/feeds/live/candle-source.js";
import type { Candle } from "../../src/domain/signals/reading.js";
import type { Asset } from "../../src/domain/signals/signal-keys.js";
import type { Clock } from "../../src/runtime/clocks/clock.js";

/** Real bars served like an exchange: the first `limit` bars opening at or after `since`, up to the clock. */
export class ExchangeStandIn implements CandleSource {
  readonly id = "binance";
  constructor(
    private readonly bars: readonly Candle[],
    private readonly clock: Clock,
  ) {}
  async fetchHourly(_asset: Asset, since: number | null, limit: number): Promise<readonly Candle[]> {
    return this.bars.filter((b) => (since === null || b.t >= since) && b.t <= this.clock.now()).slice(0, limit);
  }
}
