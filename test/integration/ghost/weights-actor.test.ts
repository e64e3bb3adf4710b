import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { createLogger } from "../../../src/logging/logger.js";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import { WeightsActor } from "../../../src/actors/weights-actor.js";
import { weightItemSchema } from "../../../src/http/schemas/weights.js";
import { closedTrade } from "../../support/ghost-trades.js";
import { freshStoreUrl, type StoreKind } from "../../support/service.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { exitBaselines } from "../../../src/application/exit-baselines.js";
import { LiveMarketFeed } from "../../../src/feeds/live/live-market-feed.js";
import { LiveFeedSync, LogPublisher } from "../../../src/feeds/live/feed-sync.js";
import { ExchangeStandIn } from "../../support/exchange-stand-in.js";
import { nextMultiplier } from "../../../src/domain/weights/weight-rules.js";

const H = 3_600_000;
const START = Date.UTC(2026, 3, 1, 1);

/**
 * The WeightsActor on the local host: every 6 market hours (00, 06, 12, 18 UTC) it grades the
 * counted closed trades and writes SPEC's rows, never moving a multiplier more than 20 % a cycle.
 */
describe("Weights actor on the local host", () => {
  let store: Store;
  let host: LocalActorHost;
  const clock = new ManualClock(START);

  beforeAll(async () => {
    store = await openStore(freshStoreUrl("sqlite", "weightsactor"));
    await store.ghostLedger.ensureFirstSprint(START - 100 * H, "2026-04-01T00:00:00.000Z");
    // 12 winning BTC trades in BULL_TRENDING whose BTC_RSI leaned bullish at entry: 12 right calls.
    await store.ghostLedger.saveClosed(Array.from({ length: 12 }, (_, i) => closedTrade("BTC", START - 90 * H + i * 6 * H, 5)));
    host = new LocalActorHost({ store: store.actorState, clock, logger: createLogger("silent"), pollIntervalMs: 0 });
    host.register(WeightsActor, (ctx) => new WeightsActor(ctx, store.ghostLedger, store.signalWeights));
    await host.start();
    await host.proxy(WeightsActor, WeightsActor.ID).ensureScheduled();
  });

  afterAll(async () => {
    await host.shutdown();
    await store.close();
  });

  it("writes nothing before the first 6-hour mark", async () => {
    clock.set(START + 4 * H);
    await host.runDue();
    expect(await store.signalWeights.all()).toEqual([]);
  });

  it("at the 06:00 mark grades the trades and raises the multiplier by at most 20 %", async () => {
    clock.set(Date.UTC(2026, 3, 1, 6));
    await host.runDue();
    const rows = (await store.signalWeights.all()).map((r) => weightItemSchema.parse(r));
    expect(rows).toEqual([
      { signal_key: "BTC_RSI", regime: "BULL_TRENDING", multiplier: 1.2, accuracy: 1, data_points: 12, last_updated: "2026-04-01T06:00:00.000Z" },
    ]);
  });

  it("six hours later moves on from the stored row (1.2 → 1.44), not from 1.0", async () => {
    clock.set(Date.UTC(2026, 3, 1, 12));
    await host.runDue();
    const rows = await store.signalWeights.all();
    expect(rows.map((r) => [r.multiplier, r.last_updated])).toEqual([[1.44, "2026-04-01T12:00:00.000Z"]]);
  });

  it("a ghost restart does not drop the multipliers to 1.0: the window ignores restarts (DECISIONS 7)", async () => {
    await store.ghostLedger.addSprint({ id: "restart-1", scope: "ALL", at: Date.UTC(2026, 3, 1, 13), reason: "test", recordedAt: "2026-04-01T13:00:00.000Z" });
    clock.set(Date.UTC(2026, 3, 1, 18));
    await host.runDue();
    const rows = await store.signalWeights.all();
    expect(rows.map((r) => [r.multiplier, r.data_points])).toEqual([[1.728, 12]]);
  });

  it("runs a mark's cycle again (a retried turn, a second warm-up) to the same rows, not a second step", async () => {
    const version = await store.signalWeights.version();
    for (let i = 0; i < 2; i++) await host.proxy(WeightsActor, WeightsActor.ID).update();
    const rows = await store.signalWeights.all();
    expect(rows.map((r) => [r.multiplier, r.data_points])).toEqual([[1.728, 12]]);
    // Written again (the version moved), to the same values.
    expect(await store.signalWeights.version()).not.toBe(version);
    expect((await store.signalWeights.lastCycle())?.before.map((r) => r.multiplier)).toEqual([1.44]);
  });
});

/**
 * The service's weights actor grades against the exits' no-skill baseline measured on the real
 * bundled bars: 12 trades, 7 winning (58 %), look like skill against a coin flip but not against
 * random entries with the same exits.
 */
describe("Weights actor with the replay feed: baseline from the bars", () => {
  it("measures the exits' baseline from the 90 days of bars before each trade and grades against it", async () => {
    const feed = await sharedReplayFeed();
    const start = Date.UTC(2024, 5, 1);
    const trades = Array.from({ length: 12 }, (_, i) => closedTrade("BTC", start + i * 6 * H, i < 7 ? 5 : -5));
    const measured = exitBaselines(feed, trades);
    const baselines = trades.map((t) => measured.get(t.id));
    // Random entries with these exits win well over half the time on real BTC bars.
    for (const b of baselines) {
      expect(b).toBeGreaterThan(0.5);
      expect(b).toBeLessThan(0.75);
    }
    // Before the bundled history begins there is nothing to measure (graded against a coin flip).
    expect(exitBaselines(feed, [closedTrade("BTC", Date.UTC(2015, 0, 1), 5)]).size).toBe(0);

    const s = await openStore(freshStoreUrl("sqlite", "weightsbaseline"));
    const clock = new ManualClock(start + 80 * H);
    const h = new LocalActorHost({ store: s.actorState, clock, logger: createLogger("silent"), pollIntervalMs: 0 });
    h.register(WeightsActor, (ctx) => new WeightsActor(ctx, s.ghostLedger, s.signalWeights, () => undefined, feed));
    await h.start();
    await s.ghostLedger.saveClosed(trades);
    await h.proxy(WeightsActor, WeightsActor.ID).update();
    const [rsi] = await s.signalWeights.all();
    await h.shutdown();
    await s.close();
    // 7 of 12 right is below the measured baseline: damped, where a coin flip would have amplified it.
    expect(rsi).toMatchObject({ signal_key: "BTC_RSI", accuracy: 0.5833, data_points: 12 });
    expect(rsi!.multiplier).toBeLessThan(1);
    expect(nextMultiplier(1, 7 / 12, 12)).toBeGreaterThan(1);
  }, 60_000);
});

/**
 * Live mode: a feed that has not polled yet holds no bars. The trades graded then go against a
 * coin flip, and are measured at the next cycle once the bars are there, instead of keeping the
 * coin flip for good.
 */
describe("Weights actor over a live feed that has not polled yet", () => {
  it("grades against a coin flip until the bars are there, then against the measured baseline", async () => {
    const replay = await sharedReplayFeed();
    const start = Date.UTC(2024, 5, 1);
    const clock = new ManualClock(start + 78 * H);
    const feed = new LiveMarketFeed(clock, new ExchangeStandIn(replay.candles("BTC", "1h", start + 200 * H, 1200), clock), []);
    const trades = Array.from({ length: 12 }, (_, i) => closedTrade("BTC", start + i * 6 * H, i < 7 ? 5 : -5));
    const s = await openStore(freshStoreUrl("sqlite", "weightslive"));
    const h = new LocalActorHost({ store: s.actorState, clock, logger: createLogger("silent"), pollIntervalMs: 0 });
    h.register(WeightsActor, (ctx) => new WeightsActor(ctx, s.ghostLedger, s.signalWeights, () => undefined, feed));
    await h.start();
    await s.ghostLedger.saveClosed(trades);
    const multiplier = async () => {
      await h.proxy(WeightsActor, WeightsActor.ID).update();
      return (await s.signalWeights.all()).find((r) => r.signal_key === "BTC_RSI")?.multiplier;
    };
    try {
      // No bars yet: 7 of 12 right looks like skill against a coin flip.
      expect(feed.candles("BTC", "1h", clock.now(), 10)).toHaveLength(0);
      const first = await multiplier();
      expect(first).toBeGreaterThan(1);
      // The next cycle, after the feed's first poll: against the measured baseline the same
      // record is below chance, and the multiplier turns down.
      clock.set(start + 84 * H);
      expect((await feed.pollCandles("BTC")).ok).toBe(true);
      expect(await multiplier()).toBeLessThan(first!);
    } finally {
      await h.shutdown();
      await s.close();
    }
  }, 60_000);
});

/**
 * Live mode after the first poll: the feed backfilled the 100 days the baseline reads, so a live
 * service grades a trade against the same baseline as a replay over the bundled history, and so
 * does a replica that never polled but loaded the bars from the store's observation log.
 */
describe.each<StoreKind>(["sqlite", "mongodb"])("Weights baseline over a live feed that has polled, on %s", (kind) => {
  it("is the replay's baseline for every trade: on the polling process, a replica that synced, and one started after the log was pruned", async () => {
    const replay = await sharedReplayFeed();
    const start = Date.UTC(2024, 5, 1);
    const now = start + 84 * H + 30 * 60_000;
    const clock = new ManualClock(now);
    // The exchange has years of bars; the feed asks for what it keeps.
    const exchange = new ExchangeStandIn(replay.candles("BTC", "1h", start + 200 * H, 5000), clock);
    const trades = Array.from({ length: 12 }, (_, i) => closedTrade("BTC", start + i * 6 * H, i < 7 ? 5 : -5));
    const s = await openStore(freshStoreUrl(kind, "weightsbackfill"));
    try {
      const polling = new LiveMarketFeed(clock, exchange, [], new LogPublisher(s.liveObservations, clock, () => undefined));
      expect((await polling.pollCandles("BTC")).ok).toBe(true);
      const replica = new LiveMarketFeed(clock, new ExchangeStandIn([], clock), []);
      await new LiveFeedSync(s.liveObservations, replica, clock, () => undefined).pull();
      // That pull also pruned the log to its retention: a process started after it loads the same.
      const restarted = new LiveMarketFeed(clock, new ExchangeStandIn([], clock), []);
      await new LiveFeedSync(s.liveObservations, restarted, clock, () => undefined).pull();

      const expected = exitBaselines(replay, trades);
      expect(expected.size).toBe(trades.length);
      expect(exitBaselines(polling, trades)).toEqual(expected);
      expect(exitBaselines(replica, trades)).toEqual(expected);
      expect(exitBaselines(restarted, trades)).toEqual(expected);
    } finally {
      await s.close();
    }
  }, 60_000);
});
