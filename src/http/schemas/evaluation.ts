import { z } from "zod";
import { ASSETS } from "../../domain/signals/signal-keys.js";
import { REGIMES, TAO_RULINGS } from "../../domain/market/vocabulary.js";
import { CALIBRATION_KINDS } from "../../domain/calibration/calibration-map.js";
import { cacheFields } from "./common.js";

export const evaluationQuerySchema = z.object({ asset: z.enum(ASSETS).default("BTC") });

const pct = z.number().nullable();
const interval = z.tuple([z.number(), z.number()]).nullable();

const reliabilityBin = z.object({
  from: z.number(),
  to: z.number(),
  count: z.number().int(),
  mean_confidence: z.number().nullable(),
  hit_rate: z.number().nullable(),
});

export const calibrationSchema = z
  .object({
    kind: z.enum(CALIBRATION_KINDS).describe("isotonic: fitted on outcomes; base_rate: no measurable skill or too few outcomes; prior: under a week of outcomes (0.5)"),
    horizon_hours: z.number().int(),
    fitted_at: z.string().describe("Market time of the fit; only outcomes matured by then were used"),
    outcomes: z.number().int(),
    window_days: z.number().int(),
    base_rate: z.number().describe("Probability of an up-move used when the score shows no skill (shrunk toward 0.5)"),
    up_share: z.number().nullable().describe("Raw share of up-moves in the window"),
    steps: z.array(
      z.object({
        max_score: z.number().describe("Highest whole score among the step's outcomes (scores pool by the nearest whole number, so the step holds scores below max_score + 0.5; the last step holds the rest)"),
        mean_score: z.number().describe("Mean score of the step's outcomes, where p_up is anchored for interpolation"),
        p_up: z.number().describe("Probability of an up-move over the horizon for scores in the step"),
        count: z.number().int().describe("Matured hourly outcomes the step was fitted on (overlapping horizons)"),
      }),
    ),
  })
  .meta({
    id: "CalibrationMap",
    // Described on the component: a description beside its use would inline it under another name.
    description:
      "The map in force at evaluated_at: score to probability of an up-move. Maps are refitted at 00:00 UTC, once the bar closing then is known (live, a minute or two later; the day before's map stands until then), and the evaluation runs every 6 market hours, so for up to 6 hours after midnight this is the previous day's map; a verdict's own map is in its confidence_basis",
  });

const span = z.object({
  span: z
    .string()
    .describe(
      "from_2023: the held-out span (replay mode; rules were chosen on data up to 2022-12-31); trailing_365d: the last 365 days of what the service recorded and published (live mode)",
    ),
  from: z.string().nullable(),
  to: z.string().nullable(),
  hours: z.number().int(),
  unconditional: z.array(
    z.object({
      hours: z.number().int(),
      mean_pct: pct,
      up_share: z.number().nullable().describe("Share of the graded hours that moved whose forward return was up; a flat hour counts as neither, as in the reliability table"),
    }),
  ),
  rulings: z.array(
    z.object({
      ruling: z.enum(TAO_RULINGS),
      count: z.number().int(),
      share: z.number(),
      horizons: z.array(
        z.object({
          hours: z.number().int(),
          graded: z.number().int(),
          mean_pct: pct,
          excess_pct: pct.describe("Mean forward return minus the unconditional mean, percentage points"),
          excess_ci90: interval.describe("Moving-block bootstrap (168 h blocks) 90% interval of the excess"),
        }),
      ),
    }),
  ),
  rank_ic: z.array(z.object({ hours: z.number().int(), ic: z.number().nullable(), t: z.number().nullable(), samples: z.number().int() })),
  rank_ic_by_year: z.array(
    z.object({ year: z.number().int(), horizons: z.array(z.object({ hours: z.number().int(), ic: z.number().nullable(), t: z.number().nullable(), samples: z.number().int() })) }),
  ),
  reliability: z.object({
    horizon_hours: z.number().int(),
    calls: z.number().int(),
    hit_rate: z.number().nullable(),
    bins: z.array(reliabilityBin),
    quintiles: z
      .array(reliabilityBin)
      .describe("Confidence quintiles: fifths of the calls by confidence rank, equal confidences always in one (so up to five, fewer when one confidence fills a fifth)"),
    quintile_mean_abs_gap: z.number().nullable().describe("Mean over the quintiles of |mean confidence − realised hit rate|"),
    brier: z
      .number()
      .nullable()
      .describe(
        "Brier score of the published confidences on the graded calls. While the calibration map is base_rate (the score shows no skill), the confidence is the base rate shrunk toward 0.5, so a Brier below brier_base_rate measures that shrinkage, not skill; skill shows in rank_ic and in an isotonic map",
      ),
    brier_base_rate: z.number().nullable().describe("Always forecasting the window's raw up-share known at the time"),
    brier_hindsight_base_rate: z.number().nullable().describe("Always forecasting the span's own up-share (hindsight)"),
    quintile_gap_if_calibrated: z
      .object({ median: z.number(), p95: z.number() })
      .nullable()
      .describe(
        "The quintile gap a perfectly calibrated forecaster would show on these calls: median and 95th percentile over 4,000 simulated hourly price walks, each call graded over its own horizon from its own hour and hitting with probability equal to its published confidence, so calls with overlapping horizons hit or miss together as far as they overlap. A measured gap inside this band is consistent with calibration",
      ),
  }),
});

export const verdictEvaluationSchema = z
  .object({
    asset: z.enum(ASSETS),
    horizon_hours: z.number().int().describe("Horizon of the published confidence"),
    evaluated_at: z.string(),
    spans: z.array(span),
    calibration: calibrationSchema,
    ...cacheFields,
  })
  .meta({ id: "VerdictEvaluation" });

export const regimeEvaluationSchema = z
  .object({
    evaluated_at: z.string(),
    from: z.string().nullable(),
    to: z.string().nullable(),
    hours: z.number().int(),
    regimes: z.array(
      z.object({
        regime: z.enum(REGIMES),
        hours: z.number().int().describe("Hours the regime was published in the span, including those whose next 24 h are not over yet"),
        graded_hours: z.number().int().describe("Hours whose next 24 h are known: the means and the up share are over these"),
        mean_forward_return_pct: pct,
        up_share: z.number().nullable().describe("Share of the graded hours whose next 24 h moved that moved up; a flat one counts as neither"),
        mean_forward_vol_pct: pct.describe("Realised volatility of the next 24 h, annualised; over the graded hours whose next 24 hourly bars are all present (a gap in the data leaves an hour's volatility out, not its return)"),
      }),
    ),
    r2_trailing_vol: z.number().nullable().describe("R² of log forward 24 h volatility on log trailing 24 h volatility"),
    r2_trailing_vol_plus_regime: z.number().nullable(),
    r2_added_by_regime: z.number().nullable(),
    r2_added_by_chance: z
      .object({
        median: z.number(),
        p95: z.number(),
        p_value: z.number().describe("Share of shifts adding at least r2_added_by_regime: (1 + at least) / (1 + shifts)"),
        shifts: z.number().int(),
      })
      .nullable()
      .describe(
        "What regime levels add to R² by chance: the published regime sequence shifted circularly against the hours (every episode's length and every regime's share kept, the alignment broken), at 199 evenly spaced shifts. Persistent levels always add a little; r2_added_by_regime means something only above this band's p95",
      ),
    returns_kruskal_wallis: z.object({ h: z.number().nullable(), df: z.number().int(), p_value: z.number().nullable(), samples: z.number().int() }),
    ...cacheFields,
  })
  .meta({ id: "RegimeEvaluation" });
