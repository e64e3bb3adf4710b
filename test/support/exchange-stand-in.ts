import type { CandleSource } from "../../src/feeds/live/candle-source.js";
import type { Candle } from "../../src/domain/signals/reading.js";
import type { Asset } from "../../src/domain/signals/signal-keys.js";
import type { Clock } from "../../src/runtime/clocks/clock.js";

/**
 * Real bars served like Binance's klines: up to the clock (the bar still forming included), the
 * first `limit` bars opening at or after `since`, or the newest `limit` without one. `requests`
 * counts the calls, as the exchange's rate limit would.
 */
export class ExchangeStandIn implements CandleSource {
  readonly id = "binance";
  requests = 0;
  constructor(
    private readonly bars: readonly Candle[],
    private readonly clock: Clock,
  ) {}
  async fetchHourly(_asset: Asset, since: number | null, limit: number): Promise<readonly Candle[]> {
    this.requests++;
    const served = this.bars.filter((b) => b.t <= this.clock.now());
    return since === null ? served.slice(-limit) : served.filter((b) => b.t >= since).slice(0, limit);
  }
}
