import { z } from "zod";
import { gateReportJsonSchema } from "../../domain/ghost/ledger-json.js";
import { intLiteral, orNull } from "./common.js";
import { ENTRY_MODES } from "../../domain/ghost/trade.js";
import { REGIMES, TAO_RULINGS } from "../../domain/market/vocabulary.js";
import { TAO_RISK_FLAGS } from "../../domain/council/tao-risk-flags.js";
import { ASSETS } from "../../domain/signals/signal-keys.js";

/**
 * Response shapes of SPEC "TAO status", "Track records", "Ghost Trader stats", "Regime stats",
 * the charting `ghost_status`, and the `ghost.signal` event data of DECISIONS 5.
 * Track-record and stats envelopes carry the cache fields as optional: SPEC lists only their
 * data fields, while DECISIONS 2 gives them a TTL, so a cached copy may say so.
 */
const optionalCache = {
  cached: z.boolean().optional(),
  cache_ttl_seconds: z.number().int().nonnegative().optional(),
};

const liquidityStatusSchema = z.enum(["SUFFICIENT", "INSUFFICIENT", "UNKNOWN"]);

/** SPEC's TAO gate board: the stored gate report's gates, count and trigger (its scores stay internal). */
export const taoGatesSchema = gateReportJsonSchema
  .pick({ liquidity: true, liquidityStatus: true, judiciary: true, council: true, emaProximity: true, regime: true, quality: true, momentum: true, session: true, gatesMet: true, trigger: true })
  .meta({ id: "TaoGates" });

export const taoCurrentTradeSchema = z
  .object({
    entryPrice: z.number().positive(),
    sizeTao: z.number().positive(),
    pnlUsd: z.number(),
    pnlPct: z.number(),
    tp1Hit: z.boolean(),
    stopLoss: z.number().positive(),
    tp1Target: z.number().positive(),
    tp2Target: z.number().positive(),
    hwm: z.number().positive().nullable(),
    liquidityAtEntry: z.number().nonnegative().nullable(),
    taoBtcRatioAtEntry: z.number().positive().nullable(),
    daysSinceHalving: z.number().int().nullable(),
  })
  .meta({ id: "TaoCurrentTrade" });

const agentVoteSchema = z.object({ ruling: z.enum(TAO_RULINGS), confidence: z.number().min(0).max(1) });

const taoStatusVerdictSchema = z
  .object({
    ruling: z.enum(TAO_RULINGS),
    confidence: z.number().min(0).max(1),
    agentVotes: z.record(z.string(), agentVoteSchema),
    riskFlags: z.array(z.enum(TAO_RISK_FLAGS)),
    createdAt: z.string(),
  })
  .meta({ id: "TaoStatusVerdict", description: "TAO verdict subset shown in status.latestVerdict" });

export const taoStatusSchema = z
  .object({
    status: z.enum(["WAITING", "IN_TRADE"]),
    currentTrade: orNull(taoCurrentTradeSchema),
    latestVerdict: orNull(taoStatusVerdictSchema),
    regime: z.enum(REGIMES).nullable(),
    rsi1h: z.number().nullable().describe("TAO 1H RSI(14) of the last closed bar; null when that bar is over 2 hours old"),
    ema200: z.number().nullable().describe("TAO 1H EMA(200) of the last closed bar; null when that bar is over 2 hours old"),
    taoPrice: z
      .number()
      .nullable()
      .describe("latest TAO/USD (the last hourly close); null when there is no current one. An open trade stays marked at the last close"),
    networkHealth: z.literal("HEALTHY"),
    liquidityStatus: liquidityStatusSchema,
    liquidityDepthUsd: z.number().nonnegative().nullable(),
    paperTradesValidated: z.number().int().min(0).max(10),
    paperMode: z.boolean(),
    generatedAt: z.string(),
    gates: taoGatesSchema,
    ...optionalCache,
  })
  .meta({ id: "TaoStatus" });

const tradeBase = {
  id: z.uuid(),
  entryTime: z.string(),
  exitTime: z.string(),
  entryPrice: z.number().positive(),
  exitPrice: z.number().positive(),
  pnlUsd: z.number(),
  pnlPct: z.number(),
  tp1PnlUsd: z.number().nullable(),
  result: z.enum(["WIN", "LOSS"]),
  mode: z.enum(ENTRY_MODES),
};

export const btcTradeSchema = z.object({ ...tradeBase, sizeBtc: z.number().positive() }).meta({ id: "BtcTrade" });
export const ethTradeSchema = z.object({ ...tradeBase, sizeEth: z.number().positive() }).meta({ id: "EthTrade" });
export const solTradeSchema = z
  .object({ ...tradeBase, sizeSol: z.number().positive(), networkHealthAtEntry: z.enum(["HEALTHY", "DEGRADED", "UNKNOWN"]) })
  .meta({ id: "SolTrade" });
export const taoTradeSchema = z
  .object({
    ...tradeBase,
    sizeTao: z.number().positive(),
    liquidityAtEntry: z.number().nonnegative().nullable(),
    daysSinceHalving: z.number().int().nullable(),
    isPaper: z.boolean(),
  })
  .meta({ id: "TaoTrade" });

const trackRecordStatsSchema = z
  .object({
    totalTrades: z.number().int().nonnegative(),
    winRate: z.number().min(0).max(100),
    totalPnl: z.number(),
    avgHoldMinutes: z.number().nonnegative(),
    bestTrade: z.number(),
    worstTrade: z.number(),
  })
  .meta({ id: "TrackRecordStats" });

const taoTrackRecordStatsSchema = trackRecordStatsSchema
  .extend({
    validatedPaperTrades: z.number().int().min(0).max(10),
    paperValidationTarget: intLiteral(10),
  })
  .meta({ id: "TaoTrackRecordStats" });

export const btcTrackRecordSchema = z
  .object({ trades: z.array(btcTradeSchema), stats: trackRecordStatsSchema, ...optionalCache })
  .meta({ id: "BtcTrackRecord" });
export const ethTrackRecordSchema = z
  .object({ trades: z.array(ethTradeSchema), stats: trackRecordStatsSchema, ...optionalCache })
  .meta({ id: "EthTrackRecord" });
export const solTrackRecordSchema = z
  .object({ trades: z.array(solTradeSchema), stats: trackRecordStatsSchema, ...optionalCache })
  .meta({ id: "SolTrackRecord" });
export const taoTrackRecordSchema = z
  .object({ trades: z.array(taoTradeSchema), stats: taoTrackRecordStatsSchema, ...optionalCache })
  .meta({ id: "TaoTrackRecord" });

export const ghostStatsSchema = z
  .object({
    validated_trades: z.number().int().nonnegative(),
    since: z.string(),
    total_pnl: z.number(),
    win_rate: z.number().min(0).max(100),
    sprint: z.number().int().min(1),
    tests_passing: z.number().int().nonnegative(),
    ...optionalCache,
  })
  .meta({ id: "GhostStats" });

const regimeStatsItemSchema = z
  .object({
    regime: z.enum(REGIMES),
    trades: z.number().int().nonnegative(),
    wins: z.number().int().nonnegative(),
    losses: z.number().int().nonnegative(),
    win_rate: z.number().min(0).max(100),
    avg_pnl_pct: z.number(),
    avg_hold_hours: z.number().nonnegative(),
    total_pnl_usd: z.number(),
  })
  .meta({ id: "RegimeStatsItem" });

export const regimeStatsSchema = z
  .object({
    regimes: z.array(regimeStatsItemSchema),
    best_regime: z.enum(REGIMES).nullable(),
    worst_regime: z.enum(REGIMES).nullable(),
    total_trades: z.number().int().nonnegative(),
    overall_win_rate: z.number().min(0).max(100),
    since: z.string(),
    generated_at: z.string(),
    cached: z.boolean(),
    cache_ttl_seconds: z.number().int().nonnegative(),
  })
  .meta({ id: "RegimeStats" });

export const ghostSignalDataSchema = z
  .object({
    asset: z.enum(ASSETS),
    action: z.enum(["ENTRY", "TP1", "EXIT"]),
    trade_id: z.uuid(),
    price: z.number().positive(),
    size: z.number().positive(),
    mode: z.enum(ENTRY_MODES),
    reason: z.string(),
    pnl_usd: z.number().nullable(),
    is_paper: z.boolean(),
  })
  .meta({ id: "GhostSignalData", description: "data of the ghost.signal event (DECISIONS 5)" });
