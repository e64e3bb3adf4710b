import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { InProcessEventBus } from "../../../src/events/in-process-bus.js";
import { OutboxDispatcher } from "../../../src/events/outbox-dispatcher.js";
import type { EventEnvelope } from "../../../src/events/event-envelope.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { MarketDataActor } from "../../../src/actors/market-data-actor.js";
import { SignalRecorder } from "../../../src/application/signal-recorder.js";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import { createLogger } from "../../../src/logging/logger.js";
import { macroAlertData } from "../../../src/http/schemas/webhooks.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { freshStoreUrl } from "../../support/service.js";

const MINUTE = 60_000;
// The bundled macro files raise RISK_OFF on 2025-01-08, and RISK_OFF again with FED_HAWKISH on 2025-01-11.
const FROM = Date.UTC(2025, 0, 7);
const TO = Date.UTC(2025, 0, 14);

describe("MarketData actor on the local host, bundled replay data", () => {
  let store: Store;
  let host: LocalActorHost;
  const clock = new ManualClock(FROM);
  const alerts: EventEnvelope[] = [];
  let newestBeforeShutdown: number | null = null;

  beforeAll(async () => {
    store = await openStore(freshStoreUrl("sqlite", "mdactor"));
    const feed = await sharedReplayFeed();
    const bus = new InProcessEventBus();
    bus.subscribe("macro.alert", async (e) => {
      alerts.push(e);
    });
    const logger = createLogger("silent");
    host = new LocalActorHost({ store: store.actorState, clock, logger, dispatcher: new OutboxDispatcher(store.actorOutbox, bus, logger, 60_000), pollIntervalMs: 0 });
    // A commit window longer than the test: the first run commits (nothing committed yet, so it
    // is a window after nothing), the rest is held until the actor's deactivation flushes it.
    const recorder = new SignalRecorder(feed, store.signalHistory, { commitWindowMs: 3_600_000 });
    host.register(MarketDataActor, (ctx) => new MarketDataActor(ctx, recorder, feed));
    await host.start();
    await host.proxy(MarketDataActor, MarketDataActor.ID).ensureScheduled();
    await host.proxy(MarketDataActor, MarketDataActor.ID).ensureScheduled();
    for (let t = FROM; t <= TO; t += 5 * MINUTE) {
      clock.set(t);
      await host.runDue();
    }
    newestBeforeShutdown = await store.signalHistory.latestRecordedAt("BTC_RSI");
    await host.shutdown();
  }, 120_000);

  afterAll(async () => {
    await store.close();
  });

  it("records the feed's readings up to market time and remembers how far it got", async () => {
    const newest = await store.signalHistory.latestRecordedAt("BTC_RSI");
    expect(newest).not.toBeNull();
    expect(newest).toBeLessThanOrEqual(TO);
    expect(newest).toBeGreaterThan(TO - 2 * 60 * MINUTE);
  });

  it("writes what the recorder held for its commit window when the actor deactivates", () => {
    expect(newestBeforeShutdown === null || newestBeforeShutdown < FROM + 60 * MINUTE, String(newestBeforeShutdown)).toBe(true);
  });

  it("publishes macro.alert when an alert is raised, once, not on every minute it stays raised", () => {
    const kinds = alerts.map((e) => `${e.timestamp.slice(0, 10)} ${(e.data as { alert: string }).alert}`);
    expect(kinds[0]).toBe("2025-01-08 RISK_OFF");
    expect(kinds, JSON.stringify(kinds)).toContain("2025-01-11 FED_HAWKISH");
    // A week of 5-minute steps: a raised alert is announced once per raise, not per step.
    expect(alerts.length).toBeLessThan(12);
    for (const e of alerts) expect(macroAlertData.safeParse(e.data).success).toBe(true);
    expect(new Set(alerts.map((e) => e.timestamp)).size).toBe(alerts.length);
  });
});
