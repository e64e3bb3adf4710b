import { defineRoute, type Route } from "../route.js";
import type { AppDeps } from "../app-deps.js";
import { ApiError } from "../error-codes.js";
import { regimeCurrentSchema, regimeHistoryQuerySchema, regimeHistorySchema } from "../schemas/regime.js";

/** TTLs: DECISIONS 2 (regime current 60 s), SPEC.md Limits (regime history 300 s). */
const TTL = { current: 60, history: 300 } as const;
/** SPEC.md "Regime history item": the history covers the last 7 days. */
const HISTORY_SPAN_MS = 7 * 24 * 3_600_000;

function warmingUp(): Error {
  return new ApiError("warming_up", { message: "No regime has been evaluated yet: the detector publishes at the first hourly bar close after its model is fitted." });
}

/**
 * The regime endpoints of issue 6. Both read what the RegimeActor recorded, as of market time,
 * so a replay never shows an evaluation from after its clock; before the first evaluation they
 * answer 503 warming_up rather than an invented regime.
 */
export function regimeRoutes(deps: AppDeps): Route[] {
  const { store, marketClock } = deps;
  return [
    defineRoute({
      method: "get",
      path: "/v1/regime/current",
      summary: "Current BTC market regime (hidden Markov model, hourly)",
      tags: ["regime"],
      access: { kind: "key", tier: "free" },
      response: regimeCurrentSchema,
      cacheTtlSeconds: TTL.current,
      errors: ["warming_up"],
      handler: async () => {
        const latest = await store.regimeHistory.latestAtOrBefore(marketClock.now());
        if (latest === null) throw warmingUp();
        const r = latest.report;
        return {
          regime: r.regime,
          confidence: r.confidence,
          btc_price: r.btcPrice,
          detected_at: new Date(r.detectedAt).toISOString(),
          strength: r.strength,
          sub_regime: r.subRegime,
          volatility_state: r.volatilityState,
          chop_score: r.chopScore,
          breakout_imminent: r.breakoutImminent,
          compatible_strategies: [...r.compatibleStrategies],
          incompatible_strategies: [...r.incompatibleStrategies],
          transition_probabilities: { ...r.transitionProbabilities },
          regime_age_hours: r.regimeAgeHours,
        };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/regime/history",
      summary: "Hourly regime evaluations of the last 7 days, newest first",
      description: "One item per hourly evaluation; a page past the end is empty and still carries the true total.",
      tags: ["regime"],
      access: { kind: "key", tier: "basic" },
      query: regimeHistoryQuerySchema,
      response: regimeHistorySchema,
      cacheTtlSeconds: TTL.history,
      errors: ["validation_failed", "warming_up"],
      handler: async ({ query }) => {
        const { page, per_page } = query;
        const now = marketClock.now();
        // Seven days of hourly rows is 168: one range read, paged here.
        const rows = await store.regimeHistory.between(now - HISTORY_SPAN_MS + 1, now);
        if (rows.length === 0 && (await store.regimeHistory.latestAtOrBefore(now)) === null) throw warmingUp();
        const newestFirst = rows.reverse();
        return {
          regimes: newestFirst.slice((page - 1) * per_page, page * per_page).map((s) => ({
            regime: s.report.regime,
            confidence: s.report.confidence,
            recorded_at: new Date(s.at).toISOString(),
          })),
          total: newestFirst.length,
          page,
          per_page,
        };
      },
    }),
  ];
}
