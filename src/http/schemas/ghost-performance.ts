import { z } from "zod";
import { cacheFields, orNull } from "./common.js";

/**
 * `GET /v1/ghost/performance?asset=` (issue 16): a Ghost Trader's current sprint with the figures
 * of freqtrade's backtest report and two benchmarks over the same span. Field meanings are in
 * docs/evaluation.md ("Ghost Trader performance"); the pure computation is
 * src/domain/ghost/trader-performance.ts.
 */
export const ghostPerformanceQuerySchema = z.object({
  asset: z.enum(["BTC", "ETH", "SOL", "TAO"]),
});

const groupRowSchema = z
  .object({
    key: z.string(),
    trades: z.number().int().nonnegative(),
    wins: z.number().int().nonnegative(),
    winRatePct: z.number().min(0).max(100),
    pnlUsd: z.number(),
    avgPnlPct: z.number(),
  })
  .meta({ id: "PerformanceGroupRow" });

const dayPnlSchema = z.object({ date: z.string(), pnlUsd: z.number() }).meta({ id: "DayPnl" });

const drawdownSchema = z
  .object({
    usd: z.number().nonnegative(),
    pct: z.number().nonnegative(),
    hours: z.number().nonnegative(),
    start: z.string().nullable(),
    end: z.string().nullable(),
  })
  .meta({ id: "Drawdown", description: "A fall of realised equity from a previous peak (start) to a trough (end); pct is of that peak." });

const bandSchema = z
  .object({ mean: z.number(), p5: z.number(), p95: z.number() })
  .meta({ id: "BenchmarkBand", description: "Mean over the draws and the 5th–95th percentile band (90 %)." });

const randomEntrySchema = z
  .object({
    seed: z.number().int(),
    draws: z.number().int().nonnegative(),
    tradesPerDraw: z.number().int().nonnegative(),
    everyEntry: z.object({
      entries: z.number().int().nonnegative(),
      winRatePct: z.number().min(0).max(100),
      expectancyUsd: z.number(),
      expectancyPct: z.number(),
      profitFactor: z.number().nonnegative().nullable(),
    }),
    matched: z
      .object({
        profitFactor: orNull(bandSchema),
        expectancyUsd: bandSchema,
        expectancyPct: bandSchema.describe("Mean P&L per trade in % of its position cost: compare the trader's expectancyPct with this band (random entries are sized from the starting equity, the trader from its current equity, so the USD bands drift apart as its equity moves)."),
        winRatePct: bandSchema,
        totalPnlUsd: bandSchema,
      })
      .nullable(),
    note: z.string().nullable(),
  })
  .meta({ id: "RandomEntryBenchmark", description: "Random entries with the trader's exits and costs over the same span, each sized by the trader's rule from the starting equity." });

const buyAndHoldSchema = z
  .object({
    returnPct: z.number(),
    capitalExposurePct: z.number().nonnegative(),
    scaledReturnPct: z.number(),
    scaledPnlUsd: z.number(),
  })
  .meta({ id: "BuyAndHoldBenchmark", description: "Buy & hold over the span, costs on, and scaled by the trader's capital exposure." });

export const ghostPerformanceSchema = z
  .object({
    asset: z.enum(["BTC", "ETH", "SOL", "TAO"]),
    sprintSince: z.string(),
    from: z.string(),
    to: z.string(),
    days: z.number().nonnegative(),
    standingAside: z.boolean(),
    note: z.string().nullable(),
    trades: z.number().int().nonnegative(),
    wins: z.number().int().nonnegative(),
    losses: z.number().int().nonnegative(),
    winRatePct: z.number().min(0).max(100),
    avgWinUsd: z.number().nonnegative(),
    avgLossUsd: z.number().nonnegative(),
    profitFactor: z.number().nonnegative().nullable(),
    expectancyUsd: z.number(),
    expectancyPct: z.number(),
    totalPnlUsd: z.number(),
    returnPct: z.number(),
    cagrPct: z.number().nullable(),
    maxDrawdown: drawdownSchema.describe("The largest fall in USD; its pct is of that episode's peak."),
    maxRelativeDrawdown: drawdownSchema.describe("The largest fall in % of its peak, with its own dates; Calmar divides by it."),
    sharpe: z.number().nullable(),
    sortino: z.number().nullable(),
    calmar: z.number().nullable(),
    exposurePct: z.number().min(0).max(100),
    feesUsd: z.number().nonnegative(),
    bestDay: orNull(dayPnlSchema),
    worstDay: orNull(dayPnlSchema),
    maxConsecutiveLosses: z.number().int().nonnegative(),
    byEntryMode: z.array(groupRowSchema),
    byExitReason: z.array(groupRowSchema),
    byYear: z.array(groupRowSchema),
    benchmarks: z.object({
      buyAndHold: orNull(buyAndHoldSchema),
      randomEntry: orNull(randomEntrySchema),
      note: z.string().nullable(),
    }),
    costs: z.object({ feeRate: z.number(), slippageRate: z.number() }),
    ...cacheFields,
  })
  .meta({ id: "GhostPerformance" });
