import { z } from "zod";
import { REGIMES } from "../../domain/market/vocabulary.js";
import { SIGNAL_KEYS } from "../../domain/signals/signal-keys.js";
import { cacheFields } from "./common.js";

/** Endpoint 10 query: one regime, "ALL", or omitted (= "ALL", DECISIONS 4). */
export const signalWeightsQuerySchema = z.object({
  regime: z.enum([...REGIMES, "ALL"]).default("ALL"),
});

export const weightItemSchema = z
  .object({
    signal_key: z.enum(SIGNAL_KEYS),
    regime: z.enum(REGIMES),
    multiplier: z.number().min(0.3).max(2),
    /** Share of graded calls that were right, 0..1. */
    accuracy: z.number().min(0).max(1),
    data_points: z.number().int().nonnegative(),
    last_updated: z.string(),
  })
  .meta({ id: "WeightItem" });

export const signalWeightsSchema = z
  .object({
    regime: z.enum([...REGIMES, "ALL"]),
    weights: z.array(weightItemSchema),
    avg_accuracy: z.number().min(0).max(1),
    window_size: z.number().int().positive(),
    last_updated: z.string(),
    ...cacheFields,
  })
  .meta({ id: "SignalWeights" });

export const agentAccuracySchema = z
  .object({
    agent_name: z.string(),
    correct_calls: z.number().int().nonnegative(),
    total_calls: z.number().int().positive(),
    accuracy_pct: z.number().min(0).max(100),
    last_updated: z.string().nullable(),
  })
  .meta({ id: "AgentAccuracy" });

export const agentPerformanceSchema = z
  .object({
    asset: z.literal("BTC"),
    trades_analyzed: z.number().int().nonnegative(),
    agents: z.array(agentAccuracySchema),
    ...cacheFields,
  })
  .meta({ id: "AgentPerformance" });
