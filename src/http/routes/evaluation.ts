import type { z } from "zod";
import { defineRoute, type HandlerBody, type Route } from "../route.js";
import type { AppDeps } from "../app-deps.js";
import { ApiError } from "../error-codes.js";
import { evaluationQuerySchema, regimeEvaluationSchema, verdictEvaluationSchema } from "../schemas/evaluation.js";
import { REGIME_EVALUATION_KEY, storedMap, verdictEvaluationKey } from "../../actors/evidence-actor.js";
import type { CalibrationMap } from "../../domain/calibration/calibration-map.js";
import type { SpanEvaluation } from "../../domain/evaluation/verdict-evaluation.js";
import type { RegimeEvaluation } from "../../domain/evaluation/regime-evaluation.js";

/** Evaluations move every 6 market hours; five minutes of cache costs nothing in accuracy. */
const TTL = 300;

const iso = (t: number | null): string | null => (t === null ? null : new Date(t).toISOString());

function warmingUp(what: string): Error {
  return new ApiError("warming_up", { message: `No ${what} evaluation has been computed yet: the evidence actors publish one within the warm-up.` });
}

export function calibrationView(m: CalibrationMap) {
  return {
    kind: m.kind,
    horizon_hours: m.horizonHours,
    fitted_at: new Date(m.fittedAt).toISOString(),
    outcomes: m.outcomes,
    window_days: m.windowDays,
    base_rate: m.baseRate,
    up_share: m.upShare,
    steps: m.steps.map((s) => ({ max_score: s.maxScore, mean_score: s.meanScore, p_up: s.pUp, count: s.count })),
  };
}

const binView = (b: SpanEvaluation["reliability"]["bins"][number]) => ({ from: b.from, to: b.to, count: b.count, mean_confidence: b.meanConfidence, hit_rate: b.hitRate });
const icView = (x: SpanEvaluation["rankIc"][number]) => ({ hours: x.hours, ic: x.ic, t: x.t, samples: x.samples });

function spanView(s: SpanEvaluation) {
  const r = s.reliability;
  return {
    span: s.span,
    from: iso(s.from),
    to: iso(s.to),
    hours: s.hours,
    unconditional: s.unconditional.map((u) => ({ hours: u.hours, mean_pct: u.meanPct, up_share: u.upShare })),
    rulings: s.rulings.map((x) => ({
      ruling: x.ruling,
      count: x.count,
      share: x.share,
      horizons: x.horizons.map((h) => ({ hours: h.hours, graded: h.graded, mean_pct: h.meanPct, excess_pct: h.excessPct, excess_ci90: h.excessCi90 === null ? null : ([h.excessCi90[0], h.excessCi90[1]] as [number, number]) })),
    })),
    rank_ic: s.rankIc.map(icView),
    rank_ic_by_year: s.rankIcByYear.map((y) => ({ year: y.year, horizons: y.horizons.map(icView) })),
    reliability: {
      horizon_hours: r.horizonHours,
      calls: r.calls,
      hit_rate: r.hitRate,
      bins: r.bins.map(binView),
      quintiles: r.quintiles.map(binView),
      quintile_mean_abs_gap: r.quintileMeanAbsGap,
      brier: r.brier,
      brier_base_rate: r.brierBaseRate,
      brier_hindsight_base_rate: r.brierHindsightBaseRate,
      quintile_gap_if_calibrated: r.quintileGapIfCalibrated === null ? null : { median: r.quintileGapIfCalibrated.median, p95: r.quintileGapIfCalibrated.p95 },
    },
  };
}

interface StoredVerdictEvaluation {
  readonly asset: string;
  readonly horizonHours: number;
  readonly evaluatedAt: number;
  readonly spans: readonly SpanEvaluation[];
  readonly calibration: unknown;
}

/**
 * Issue 16's evidence, as the EvidenceActors computed it on the service clock: how the published
 * verdicts fared (per ruling, rank IC, reliability of confidence) and what the regime adds.
 * Bodies are stored by the actors; the routes only reshape them (and validate on the way out).
 */
export function evaluationRoutes(deps: AppDeps): Route[] {
  const { store, logger } = deps;
  /**
   * A stored evaluation read through the route's response schema: one written by another build
   * (a field added since, as `graded_hours` was) is not served as a 500 but as not computed yet,
   * until the evidence actor, which recomputes on a new format, writes this build's.
   */
  const readStored = <S extends z.ZodType>(what: string, schema: S, view: () => HandlerBody<S> | null): HandlerBody<S> => {
    let read: { readonly value: HandlerBody<S>; readonly issues: number } | null = null;
    let thrown: unknown = undefined;
    try {
      const value = view();
      if (value !== null) {
        // The router adds the cache fields after the handler; checked here as it will add them.
        const parsed = schema.safeParse({ ...value, cached: false, cache_ttl_seconds: TTL });
        read = { value, issues: parsed.success ? 0 : parsed.error.issues.length };
      }
    } catch (err) {
      // An old shape the view cannot walk, or a fault of this build's view: the log tells which.
      thrown = err;
      read = null;
    }
    if (read !== null && read.issues === 0) return read.value;
    logger.warn({ evaluation: what, issues: read?.issues ?? null, ...(thrown === undefined ? {} : { err: thrown }) }, "stored evaluation does not read as this build's shape; answered as not computed yet");
    throw warmingUp(what);
  };
  return [
    defineRoute({
      method: "get",
      path: "/v1/evaluation/verdicts",
      summary: "How the published verdicts fared: forward returns per ruling, rank IC, calibration of confidence",
      tags: ["evaluation"],
      access: { kind: "key", tier: "basic" },
      query: evaluationQuerySchema,
      response: verdictEvaluationSchema,
      cacheTtlSeconds: TTL,
      errors: ["validation_failed", "warming_up"],
      handler: async ({ query }) => {
        const doc = await store.evidence.get(verdictEvaluationKey(query.asset));
        if (doc === null) throw warmingUp(`${query.asset} verdict`);
        return readStored(`${query.asset} verdict`, verdictEvaluationSchema, () => {
          const body = doc.body as StoredVerdictEvaluation;
          const map = storedMap(body.calibration);
          if (map === null) return null;
          return {
            asset: query.asset,
            horizon_hours: body.horizonHours,
            evaluated_at: new Date(body.evaluatedAt).toISOString(),
            spans: body.spans.map(spanView),
            calibration: calibrationView(map),
          };
        });
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/evaluation/regime",
      summary: "What the published regime says about the next 24 h, against trailing volatility",
      tags: ["evaluation"],
      access: { kind: "key", tier: "basic" },
      response: regimeEvaluationSchema,
      cacheTtlSeconds: TTL,
      errors: ["warming_up"],
      handler: async () => {
        const doc = await store.evidence.get(REGIME_EVALUATION_KEY);
        if (doc === null) throw warmingUp("regime");
        return readStored("regime", regimeEvaluationSchema, () => {
          const e = doc.body as RegimeEvaluation & { evaluatedAt: number };
          return {
            evaluated_at: new Date(e.evaluatedAt).toISOString(),
            from: iso(e.from),
            to: iso(e.to),
            hours: e.hours,
            regimes: e.regimes.map((r) => ({ regime: r.regime, hours: r.hours, graded_hours: r.gradedHours, mean_forward_return_pct: r.meanForwardReturnPct, up_share: r.upShare, mean_forward_vol_pct: r.meanForwardVolPct })),
            r2_trailing_vol: e.r2TrailingVol,
            r2_trailing_vol_plus_regime: e.r2TrailingVolPlusRegime,
            r2_added_by_regime: e.r2AddedByRegime,
            // A document from before this field throws here and reads as not computed yet (readStored).
            r2_added_by_chance: e.r2AddedByChance === null ? null : { median: e.r2AddedByChance.median, p95: e.r2AddedByChance.p95, p_value: e.r2AddedByChance.pValue, shifts: e.r2AddedByChance.shifts },
            returns_kruskal_wallis: { h: e.returnsKruskalWallis.h, df: e.returnsKruskalWallis.df, p_value: e.returnsKruskalWallis.pValue, samples: e.returnsKruskalWallis.samples },
          };
        });
      },
    }),
  ];
}
