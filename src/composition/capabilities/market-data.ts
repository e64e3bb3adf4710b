import { MarketDataActor } from "../../actors/market-data-actor.js";
import { MarketPollerActor } from "../../actors/market-poller-actor.js";
import { SERVICE_COMMIT_WINDOW_MS, SignalRecorder } from "../../application/signal-recorder.js";
import { signalRoutes } from "../../http/routes/signals.js";
import type { Capability } from "../capability.js";

/**
 * Signals: recorded each market minute by the MarketData actor (which also raises macro.alert),
 * served by the signal routes. In live mode each poller gets a MarketPoller actor whose reminder
 * polls its provider, so polling runs on the same schedule on the local host and on Dapr.
 */
export const marketDataCapability: Capability = {
  name: "market-data",
  registerActors(ctx) {
    const recorder = new SignalRecorder(ctx.feed, ctx.store.signalHistory, { commitWindowMs: SERVICE_COMMIT_WINDOW_MS });
    ctx.host.register(MarketDataActor, (actorCtx) => new MarketDataActor(actorCtx, recorder, ctx.feed));
    const pollers = new Map((ctx.marketPollers ?? []).map((p) => [p.id, p]));
    ctx.host.register(MarketPollerActor, (actorCtx) => new MarketPollerActor(actorCtx, pollers.get(actorCtx.id)));
  },
  async start(ctx) {
    // Concurrently: one actor held up by a rebalance must not hold up the others' schedules.
    await Promise.all([
      ctx.host.proxy(MarketDataActor, MarketDataActor.ID).ensureScheduled(),
      ...(ctx.marketPollers ?? []).map((p) => ctx.host.proxy(MarketPollerActor, p.id).ensureScheduled()),
    ]);
  },
  routes: (ctx) => signalRoutes(ctx),
};
