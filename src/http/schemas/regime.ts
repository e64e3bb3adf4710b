import { z } from "zod";
import { REGIMES } from "../../domain/market/vocabulary.js";
import { STRENGTHS } from "../../domain/regime/strength.js";
import { VOLATILITY_STATES } from "../../domain/regime/volatility-state.js";
import { cacheFields, pageQuery } from "./common.js";

const probability = z.number().min(0).max(1);

/** SPEC.md "Regime current" (`GET /v1/regime/current`), fields as DECISIONS 4 and issue 6 fill them. */
export const regimeCurrentSchema = z
  .object({
    regime: z.enum(REGIMES),
    confidence: probability.describe("filtered posterior probability of the regime at the newest hourly bar"),
    btc_price: z.number().positive().nullable(),
    detected_at: z.iso.datetime()
      .nullable()
      .describe("close time of the bar the regime was read from; over 2 h old while BTC's price has stopped, when this is the last detection before the gap"),
    ...cacheFields,
    strength: z.enum(STRENGTHS).nullable().describe("STRONG ≥ 0.80, MODERATE ≥ 0.60, else WEAK"),
    sub_regime: z.string().nullable(),
    volatility_state: z.enum(VOLATILITY_STATES).nullable(),
    chop_score: probability.nullable().describe("Choppiness Index (14 h) scaled to 0 (trending) .. 1 (choppy)"),
    breakout_imminent: z.boolean().nullable(),
    compatible_strategies: z.array(z.string()).nullable(),
    incompatible_strategies: z.array(z.string()).nullable(),
    transition_probabilities: z
      .record(z.enum(REGIMES), probability)
      .nullable()
      .describe("fitted transition-matrix row of the current state, summed per regime"),
    regime_age_hours: z.number().nonnegative().nullable(),
  })
  .meta({ id: "RegimeCurrent" });

/** SPEC.md "Regime history item". */
export const regimeHistoryItemSchema = z
  .object({
    regime: z.enum(REGIMES),
    confidence: probability,
    recorded_at: z.string(),
  })
  .meta({ id: "RegimeHistoryItem" });

export const regimeHistoryQuerySchema = z.object({ ...pageQuery });

/** `GET /v1/regime/history` envelope: the last 7 days, paginated. */
export const regimeHistorySchema = z
  .object({
    regimes: z.array(regimeHistoryItemSchema),
    total: z.number().int().nonnegative(),
    page: z.number().int().min(1),
    per_page: z.number().int().min(1),
    ...cacheFields,
  })
  .meta({ id: "RegimeHistory" });
