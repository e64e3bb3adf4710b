import { VerdictActor } from "../../actors/verdict-actor.js";
import { EvidenceActor } from "../../actors/evidence-actor.js";
import { evaluationRoutes } from "../../http/routes/evaluation.js";
import { COUNCIL_ASSETS, CouncilActor } from "../../actors/council-actor.js";
import { GhostTraderActor } from "../../actors/ghost-trader-actor.js";
import { verdictRoutes } from "../../http/routes/verdict.js";
import { councilRoutes } from "../../http/routes/council.js";
import { councilAdvisorFromEnv } from "../../llm/advisor-from-env.js";
import { llmTelemetry } from "../../observability/llm-telemetry.js";
import { ModelCallCap } from "../../application/model-call-cap.js";
import { ASSETS } from "../../domain/signals/signal-keys.js";
import { multipliersFor } from "../../store/signal-multipliers.js";
import type { Capability } from "../capability.js";
import { turnOffsets } from "../turn-order.js";

/**
 * Judiciary Engine and councils: a VerdictActor per asset (every 5 market minutes; BTC's publishes
 * verdict.new) and a CouncilActor per council (BTC, TAO, SOL; every 30 market minutes, with the
 * configured language model or in judiciary mode; council.new). Routes read the stored results.
 */
export const judiciaryCapability: Capability = {
  name: "judiciary",
  registerActors(ctx) {
    const regimes = ctx.store.regimeHistory;
    // The adaptive multipliers the WeightsActor learns (ghost capability); 1.0 until it has data.
    const weights = multipliersFor(ctx.store.signalWeights);
    const evidence = ctx.store.evidence;
    const offsets = turnOffsets(ctx.barSettleMs ?? 0);
    ctx.host.register(EvidenceActor, (actorCtx) => new EvidenceActor(actorCtx, { feed: ctx.feed, evidence, regimes, sessions: ctx.store.councilSessions, history: ctx.store.calibrationHistory, warmUpEndsAt: () => ctx.marketClock.warmUpEndsAt, barTurnOffsetMs: offsets.evidence }));
    ctx.host.register(VerdictActor, (actorCtx) => new VerdictActor(actorCtx, { feed: ctx.feed, verdicts: ctx.store.verdicts, regimes, askRegimeActor: true, weights, evidence, turnOffsetMs: offsets.verdict }));
    // One advisor for all councils: the HTTP client keeps no per-session state.
    const perHour = ctx.config.LLM_MAX_CALLS_PER_HOUR;
    const cap = perHour === undefined ? null : new ModelCallCap(ctx.store.counters, ctx.wallClock, perHour);
    const advisor = councilAdvisorFromEnv(ctx.config, { telemetry: llmTelemetry(ctx.logger), ...(cap ? { hourlyAllowance: () => cap.take() } : {}) });
    ctx.logger.info({ council_mode: advisor === null ? "judiciary" : "council" }, "councils configured");
    const modelAllowed = () => !ctx.marketClock.warmingUp;
    // Depth is measured only live, with an order book, by each Ghost Trader's probe; the TAO
    // council reads TAO's from the trader that owns it (one figure for gate 0 and LIQUIDITY_RISK).
    const taoLiquidity = ctx.orderBook ? async () => (await ctx.host.proxy(GhostTraderActor, "TAO").liquidity()).status : null;
    ctx.host.register(
      CouncilActor,
      (actorCtx) => new CouncilActor(actorCtx, { feed: ctx.feed, sessions: ctx.store.councilSessions, regimes, askRegimeActor: true, advisor, modelAllowed, evidence, taoLiquidity, turnOffsetMs: offsets.council }),
    );
  },
  async start(ctx) {
    // Concurrently: one actor held up by a rebalance must not hold up the others' schedules.
    await Promise.all([
      ...ASSETS.map((asset) => ctx.host.proxy(EvidenceActor, asset).ensureScheduled()),
      ...ASSETS.map((asset) => ctx.host.proxy(VerdictActor, asset).ensureScheduled()),
      ...COUNCIL_ASSETS.map((asset) => ctx.host.proxy(CouncilActor, asset).ensureScheduled()),
    ]);
  },
  routes: (ctx) => [
    ...evaluationRoutes(ctx),
    ...verdictRoutes(ctx),
    ...councilRoutes({
      ...ctx,
      councilTurnOffsetMs: turnOffsets(ctx.barSettleMs ?? 0).council,
      nudgeCouncil: (asset) => {
        ctx.host
          .proxy(CouncilActor, asset)
          .refresh()
          .catch((err: unknown) => ctx.logger.warn({ err, asset }, "council refresh nudge failed"));
      },
    }),
  ],
};
