import { RegimeActor } from "../../actors/regime-actor.js";
import { regimeRoutes } from "../../http/routes/regime.js";
import type { Capability } from "../capability.js";
import { turnOffsets } from "../turn-order.js";

/** Regime detection: the RegimeActor evaluates each hourly BTC bar into the regime history; the regime routes serve it. */
export const regimeCapability: Capability = {
  name: "regime",
  registerActors(ctx) {
    ctx.host.register(RegimeActor, (actorCtx) => new RegimeActor(actorCtx, { feed: ctx.feed, history: ctx.store.regimeHistory, barTurnOffsetMs: turnOffsets(ctx.barSettleMs ?? 0).regime }));
  },
  async start(ctx) {
    await ctx.host.proxy(RegimeActor, RegimeActor.ID).ensureScheduled();
  },
  routes: (ctx) => regimeRoutes(ctx),
};
