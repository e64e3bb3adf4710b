import { beforeAll, describe, expect, it } from "vitest";
import { computeTechnicalSeries } from "../../../../src/domain/indicators/technical-series.js";
import { CandleSeries } from "../../../../src/domain/signals/candle-series.js";
import type { Candle } from "../../../../src/domain/signals/reading.js";
import type { Asset } from "../../../../src/domain/signals/signal-keys.js";
import { buildSignalsSnapshot } from "../../../../src/domain/signals/snapshot.js";
import { ManualClock } from "../../../../src/domain/time/clock.js";
import type { CandleSource } from "../../../../src/feeds/live/candle-source.js";
import { LiveMarketFeed } from "../../../../src/feeds/live/live-market-feed.js";
import { ProviderError } from "../../../../src/feeds/live/provider-error.js";
import { loadReplayDataset } from "../../../../src/feeds/replay/load-dataset.js";

const H = 3_600_000;

/** A candle source serving real BTC history up to the clock, in pages, like an exchange. */
class HistorySource implements CandleSource {
  readonly id = "binance";
  failNext = false;
  constructor(
    private readonly bars: readonly Candle[],
    private readonly clock: ManualClock,
  ) {}
  async fetchHourly(_asset: Asset, since: number | null, limit: number): Promise<readonly Candle[]> {
    if (this.failNext) {
      this.failNext = false;
      throw new ProviderError(this.id, "rate_limited", "HTTP 429", 429);
    }
    // Like an exchange: the still-forming bar is included; the store must drop it.
    return this.bars.filter((b) => (since === null || b.t >= since) && b.t <= this.clock.now()).slice(0, limit);
  }
}

describe("LiveMarketFeed streaming candles and indicators", () => {
  let btc: CandleSeries;
  beforeAll(async () => {
    btc = (await loadReplayDataset("market-data")).candles.BTC["1h"];
  }, 60_000);

  it("updates indicators bar by bar to the same values as a batch pass over the same bars", async () => {
    const from = btc.lastClosedIndex(Date.parse("2025-01-01T00:00:00Z"));
    const bars = Array.from({ length: 1500 }, (_, k) => btc.at(from + k));
    const first = bars[0] as Candle;
    const clock = new ManualClock(first.t + 1000 * H + 30 * 60_000);
    const source = new HistorySource(bars, clock);
    const feed = new LiveMarketFeed(clock, source, []);
    expect((await feed.pollCandles("BTC")).ok).toBe(true);
    for (let k = 0; k < 500; k++) {
      clock.advance(H);
      if (k === 100) source.failNext = true; // a 429 mid-way: the next poll catches up
      await feed.pollCandles("BTC");
    }
    const at = clock.now();
    const live = feed.technicals("BTC", "1h", at);
    const closedBars = bars.filter((b) => b.t + H <= at);
    const batch = computeTechnicalSeries(CandleSeries.fromCandles(H, closedBars));
    const last = closedBars.length - 1;
    expect(live?.observedAt).toBe((closedBars[last] as Candle).t + H);
    expect(live?.values.rsi14).toBeCloseTo(batch.fields.rsi14[last] ?? Number.NaN, 9);
    expect(live?.values.ema200).toBeCloseTo(batch.fields.ema200[last] ?? Number.NaN, 6);
    expect(live?.values.macdHistogram).toBeCloseTo(batch.fields.macdHistogram[last] ?? Number.NaN, 6);
    expect(live?.values.realizedVolPct).toBeCloseTo(batch.fields.realizedVolPct[last] ?? Number.NaN, 6);
    expect(feed.candles("BTC", "1h", at, 2000)).toHaveLength(1000);
    expect(feed.technicals("BTC", "4h", at)).not.toBeNull();

    const snap = buildSignalsSnapshot({
      mode: "live",
      at,
      readings: feed.latestReadings(at),
      calendar: { tier: "NONE", event_name: null, hours_until: 0, is_active: false, status: "CLEAR" },
    });
    const live5 = snap.signals.filter((s) => s.category === "technical" && s.status === "LIVE");
    expect(live5).toHaveLength(5);
    expect(snap.signals.find((s) => s.key === "BTC_RSI")?.value).toBeCloseTo(batch.fields.rsi14[last] ?? Number.NaN, 9);
  }, 30_000);
});
