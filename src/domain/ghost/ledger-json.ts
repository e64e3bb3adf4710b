/*
 * The Ghost Traders' ledger rows as the stores keep them (closed trades, and what a snapshot
 * holds: the open position, the gate board, the liquidity view), read back through these schemas
 * as verdicts and sessions are.
 */
import { z } from "zod";
import { REGIMES } from "../market/vocabulary.js";
import { ASSETS, SIGNAL_KEYS } from "../signals/signal-keys.js";
import { ENTRY_MODES, FILL_REASONS, TRADE_ORIGINS, type ClosedTrade } from "./trade.js";

const LIQUIDITY_STATUSES = ["SUFFICIENT", "INSUFFICIENT", "UNKNOWN"] as const;

const exitFillJsonSchema = z.object({
  t: z.number().int(),
  price: z.number().positive(),
  size: z.number().nonnegative(),
  reason: z.enum(FILL_REASONS),
  feeUsd: z.number(),
  pnlUsd: z.number(),
});

const entryRecordJsonShape = {
  id: z.string().min(1),
  asset: z.enum(ASSETS),
  origin: z.enum(TRADE_ORIGINS),
  mode: z.enum(ENTRY_MODES),
  entryTime: z.number().int(),
  entryPrice: z.number().positive(),
  size: z.number().nonnegative(),
  entryFeeUsd: z.number(),
  regimeAtEntry: z.enum(REGIMES).nullable(),
  signalsAtEntry: z.array(z.object({ key: z.enum(SIGNAL_KEYS), value: z.number().nullable(), contribution: z.number() })),
  triggerId: z.string().nullable(),
  triggerKind: z.enum(["council", "judiciary"]),
  qualityScore: z.number(),
  extras: z.object({
    liquidityAtEntry: z.number().nullable(),
    assetBtcRatioAtEntry: z.number().nullable(),
    networkHealthAtEntry: z.enum(["HEALTHY", "DEGRADED", "UNKNOWN"]).nullable(),
  }),
};

/**
 * A closed trade as the ledger keeps it, read back through this schema (as verdicts and sessions
 * are): a trade of a shape this build does not read fails where it is read instead of entering
 * the track record, the integrity checks or the signal weights half-formed.
 */
export const closedTradeJsonSchema = z.object({
  ...entryRecordJsonShape,
  exitTime: z.number().int(),
  exitPrice: z.number().positive(),
  exitReason: z.enum(FILL_REASONS),
  fills: z.array(exitFillJsonSchema),
  pnlUsd: z.number(),
  pnlPct: z.number(),
  tp1PnlUsd: z.number().nullable(),
  result: z.enum(["WIN", "LOSS"]),
  valid: z.boolean(),
});

/** An open position as a Ghost Trader's snapshot keeps it. */
export const openPositionJsonSchema = z.object({
  ...entryRecordJsonShape,
  remaining: z.number().nonnegative(),
  stopLoss: z.number(),
  tp1Hit: z.boolean(),
  hwm: z.number().nullable(),
  fills: z.array(exitFillJsonSchema),
});

export function closedTradeFromJson(json: unknown): ClosedTrade {
  return closedTradeJsonSchema.parse(json);
}

/** Stored trade rows read one by one: those that read back as trades, and how many did not. */
export interface CheckedTrades {
  readonly trades: ClosedTrade[];
  readonly unreadable: number;
}

/**
 * Stored rows read one by one through a schema: what reads back, and the rows that do not (kept
 * whole, so each caller names or counts them as it reports them). One bad row never hides the rest.
 */
export function readEachRow<S extends z.ZodType, R>(schema: S, rows: readonly R[], json: (row: R) => unknown): { readonly read: z.output<S>[]; readonly refused: R[] } {
  const read: z.output<S>[] = [];
  const refused: R[] = [];
  for (const row of rows) {
    const parsed = schema.safeParse(json(row));
    if (parsed.success) read.push(parsed.data);
    else refused.push(row);
  }
  return { read, refused };
}

export function closedTradesChecked(jsons: readonly unknown[]): CheckedTrades {
  const { read, refused } = readEachRow(closedTradeJsonSchema, jsons, (json) => json);
  return { trades: read, unreadable: refused.length };
}

export const liquidityViewJsonSchema = z.object({ status: z.enum(LIQUIDITY_STATUSES), depthUsd: z.number().nullable(), live: z.boolean() });

export const gateReportJsonSchema = z.object({
  liquidity: z.boolean(),
  liquidityStatus: z.enum(LIQUIDITY_STATUSES),
  judiciary: z.boolean(),
  council: z.boolean(),
  emaProximity: z.boolean(),
  regime: z.boolean(),
  quality: z.boolean(),
  momentum: z.boolean(),
  session: z.boolean(),
  gatesMet: z.number().int().min(0).max(8),
  trigger: z.string().nullable(),
  qualityScore: z.object({ trend: z.number(), momentum: z.number(), volume: z.number(), confidence: z.number(), regime: z.number(), total: z.number() }),
  emaDistancePct: z.number().nullable(),
  allowEntry: z.boolean(),
});
