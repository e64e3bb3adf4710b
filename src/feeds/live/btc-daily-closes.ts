import type { SignalReading } from "../../domain/signals/reading.js";
import type { Clock } from "../../runtime/clocks/clock.js";
import type { DailyCandleSource } from "./candle-source.js";
import type { DailySeriesSink } from "./live-macro-series.js";
import type { ReadingProvider } from "./reading-provider.js";

const DAY = 86_400_000;
/** Daily bars fetched: the macro providers fetch about three months, and a pair needs both days. */
export const BTC_DAILY_BARS = 120;
export const BTC_DAILY_CLOSES_POLLER = "daily-closes:BTC";

/**
 * BTC's closes of completed UTC days from the spot exchange, handed to the macro series: the BTC
 * side of every macro series' 30-day correlation and of BTC_NASDAQ_CORR. A poller of its own, so
 * an exchange outage or ban costs the correlations' newest days only, never the Yahoo and FRED
 * series; and through the service's one ccxt exchange, so a ban another call heard holds it too.
 * It yields no reading itself: the live feed derives BTC_NASDAQ_CORR from these closes and the
 * Nasdaq-100's.
 */
export class BtcDailyClosesProvider implements ReadingProvider {
  readonly id = BTC_DAILY_CLOSES_POLLER;

  constructor(
    private readonly clock: Clock,
    private readonly source: DailyCandleSource,
    private readonly series: DailySeriesSink,
  ) {}

  async poll(): Promise<readonly SignalReading[]> {
    const bars = await this.source.fetchDaily("BTC", BTC_DAILY_BARS);
    const now = this.clock.now();
    // The bar of the day under way carries a running price, not a close.
    const closed = bars.filter((b) => b.t % DAY === 0 && b.t + DAY <= now);
    this.series.record(
      "BTC",
      closed.map((b) => ({ day: b.t, value: b.c })),
    );
    return [];
  }
}
