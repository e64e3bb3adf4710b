import { afterEach, describe, expect, it } from "vitest";
import { GhostTraderActor } from "../../../src/actors/ghost-trader-actor.js";
import { FeedBarSource } from "../../../src/application/ghost-bar-source.js";
import { turnOffsets } from "../../../src/composition/turn-order.js";
import { LIVE_BAR_SETTLE_MS } from "../../../src/composition/open-market.js";
import { DEFAULT_COSTS } from "../../../src/domain/ghost/costs.js";
import type { Candle } from "../../../src/domain/signals/reading.js";
import { LiveMarketFeed } from "../../../src/feeds/live/live-market-feed.js";
import { createLogger } from "../../../src/logging/logger.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import { ExchangeStandIn } from "../../support/exchange-stand-in.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { freshStoreUrl } from "../../support/service.js";

const H = 3_600_000;
const MIN = 60_000;

/**
 * Live, the candles reach the feed by a once-a-minute poll after each close. A trader whose turn
 * came exactly on the hour applied the bar that closed an hour before: entries, stops and
 * targets an hour late, and `ghost.signal` carrying an hour-old price.
 */
describe("a live Ghost Trader's hourly turn", () => {
  let host: LocalActorHost | undefined;
  let store: Store | undefined;
  afterEach(async () => {
    await host?.shutdown();
    await store?.close();
  });

  it("applies the bar that closed at the top of the hour, with its indicators, in that hour's turn", async () => {
    const replay = await sharedReplayFeed();
    const bars: Candle[] = [...replay.candles("ETH", "1h", Date.UTC(2025, 2, 1), 600)];
    // The poller's minute phase: 50 s past each minute, the latest a poll can be.
    const start = (bars[520] as Candle).t + 50_000;
    const clock = new ManualClock(start);
    const feed = new LiveMarketFeed(clock, new ExchangeStandIn(bars, clock), []);
    store = await openStore(freshStoreUrl("sqlite", "livebarturn"));
    const s = store;
    expect((await feed.pollCandles("ETH")).ok).toBe(true);
    host = new LocalActorHost({ store: s.actorState, clock, logger: createLogger("silent"), pollIntervalMs: 0 });
    const deps = { source: new FeedBarSource(feed, s), ledger: s.ghostLedger, costs: DEFAULT_COSTS, liquidityProbe: null, barTurnOffsetMs: turnOffsets(LIVE_BAR_SETTLE_MS).trader };
    host.register(GhostTraderActor, (ctx) => new GhostTraderActor(ctx, deps));
    await host.start();
    await host.proxy(GhostTraderActor, "ETH").ensureScheduled();

    const lags: number[] = [];
    // Ten-second steps: a reminder fires at its due time, the poll at its own phase.
    for (let step = 1; step <= 7 * 360; step++) {
      clock.set(start + step * 10_000);
      if (clock.now() % MIN === 50_000) await feed.pollCandles("ETH");
      await host.runDue();
      // Ten minutes past each hour after the first: that hour's turn has run.
      if (step > 360 && clock.now() % H === 10 * MIN + 50_000) {
        const snap = await s.ghostLedger.snapshot("ETH");
        const hourClosed = Math.floor(clock.now() / H) * H;
        lags.push((hourClosed - ((snap?.barT ?? 0) + H)) / H);
        // The bar's own indicators (the live feed answers them as of its close).
        expect(snap?.rsi1h).not.toBeNull();
        expect(snap?.ema200).not.toBeNull();
      }
    }
    expect(lags).toEqual([0, 0, 0, 0, 0, 0]);
  }, 120_000);
});
