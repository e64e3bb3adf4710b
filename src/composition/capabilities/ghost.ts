import { GhostTraderActor } from "../../actors/ghost-trader-actor.js";
import { WeightsActor } from "../../actors/weights-actor.js";
import { DEFAULT_COSTS } from "../../domain/ghost/costs.js";
import { chartingRoutes } from "../../http/routes/charting.js";
import { ghostRoutes } from "../../http/routes/ghost.js";
import { weightsRoutes } from "../../http/routes/weights.js";
import { multipliersFor } from "../../store/signal-multipliers.js";
import { FeedBarSource } from "../../application/ghost-bar-source.js";
import type { Capability } from "../capability.js";
import { turnOffsets } from "../turn-order.js";
import { CcxtOrderBookDepth, type OrderBookExchange } from "../../feeds/live/ccxt-order-book.js";
import type { LiquidityProbe } from "../../actors/ghost-trader-actor.js";


/** TAO/USDT depth on the live spot exchange (the one the live candles come from). */
function ccxtLiquidityProbe(exchange: OrderBookExchange): LiquidityProbe {
  const depth = new CcxtOrderBookDepth("binance", exchange);
  return (asset) => depth.depthUsd(asset);
}

/**
 * Ghost Traders (BTC, ETH, SOL, TAO), the 6-hourly signal weights, and the routes that read their
 * ledger: track records, TAO status, ghost and regime stats, agent accuracy, charting.
 * Listed after judiciary (and regime): the traders read the verdicts, sessions and regimes those
 * capabilities store.
 */
export const ghostCapability: Capability = {
  name: "ghost",
  registerActors(ctx) {
    const source = new FeedBarSource(ctx.feed, ctx.store);
    // Replay has no order book (DECISIONS 7): the probe, and its 60-second reminder, exist only live.
    const liquidityProbe = ctx.config.MARKET_FEED === "live" && ctx.orderBook ? ccxtLiquidityProbe(ctx.orderBook) : null;
    const deps = { source, ledger: ctx.store.ghostLedger, costs: DEFAULT_COSTS, liquidityProbe, barTurnOffsetMs: turnOffsets(ctx.barSettleMs ?? 0).trader, askRulingActors: true };
    ctx.host.register(GhostTraderActor, (actorCtx) => new GhostTraderActor(actorCtx, deps));
    const multipliers = multipliersFor(ctx.store.signalWeights);
    ctx.host.register(WeightsActor, (actorCtx) => new WeightsActor(actorCtx, ctx.store.ghostLedger, ctx.store.signalWeights, (rows) => multipliers.load(rows), ctx.feed));
  },
  async start(ctx) {
    await multipliersFor(ctx.store.signalWeights).refresh();
    // The first track-record period starts when the traders first start (market time).
    await ctx.store.ghostLedger.ensureFirstSprint(ctx.marketClock.now(), new Date(ctx.wallClock.now()).toISOString());
    // Concurrently: one actor held up by a rebalance must not hold up the others' schedules.
    await Promise.all([
      ...GhostTraderActor.IDS.map((id) => ctx.host.proxy(GhostTraderActor, id).ensureScheduled()),
      ctx.host.proxy(WeightsActor, WeightsActor.ID).ensureScheduled(),
    ]);
  },
  routes: (ctx) => [...ghostRoutes(ctx), ...weightsRoutes(ctx), ...chartingRoutes(ctx)],
};
