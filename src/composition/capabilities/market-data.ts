import { MarketDataActor } from "../../actors/market-data-actor.js";
import { SignalRecorder } from "../../services/signal-recorder.js";
import { signalRoutes } from "../../http/routes/signals.js";
import type { Capability } from "../capability.js";

/** Signals: recorded each market minute by the MarketData actor (which also raises macro.alert), served by the signal routes. */
export const marketDataCapability: Capability = {
  name: "market-data",
  registerActors(ctx) {
    const recorder = new SignalRecorder(ctx.feed, ctx.store.signalHistory);
    ctx.host.register(MarketDataActor, (actorCtx) => new MarketDataActor(actorCtx, recorder, ctx.feed));
  },
  async start(ctx) {
    await ctx.host.proxy(MarketDataActor, MarketDataActor.ID).ensureScheduled();
  },
  routes: (ctx) => signalRoutes(ctx),
};
