import { z } from "zod";
import { SIGNAL_CATEGORIES, SIGNAL_KEYS, SIGNAL_STATUSES } from "../../domain/signals/signal-keys.js";
import { cacheFields, intLiteral, pageQuery, queryInt } from "./common.js";

/** SPEC "macro_calendar" with the values of DECISIONS 7. */
export const macroCalendarSchema = z
  .object({
    tier: z.enum(["NONE", "TIER1", "TIER2", "TIER3"]),
    event_name: z.string().nullable(),
    hours_until: z.number().nonnegative(),
    is_active: z.boolean(),
    status: z.enum(["CLEAR", "WATCH", "WARNING", "BLACKOUT"]),
    complete_until: z
      .string()
      .nullable()
      .describe(
        "Up to this time the calendar lists every TIER1 release (FOMC decision, CPI, payrolls); after it a CPI or payrolls day may be missing, so CLEAR no longer rules out a TIER1 day. The bundled calendar lists FOMC decisions through 2026 and CPI and payrolls through 2026-02, and no TIER2 releases",
      ),
  })
  .meta({ id: "MacroCalendar" });

/** `value`/`last_updated` are null only for a signal never observed (DECISIONS 4). */
export const signalItemSchema = z
  .object({
    key: z.enum(SIGNAL_KEYS),
    display_name: z.string(),
    category: z.enum(SIGNAL_CATEGORIES),
    value: z.number().nullable(),
    status: z.enum(SIGNAL_STATUSES),
    last_updated: z.string().nullable(),
  })
  .meta({ id: "SignalItem" });

export const signalsSnapshotSchema = z
  .object({
    signals: z.array(signalItemSchema),
    total_signals: intLiteral(27),
    live_count: z.number().int().nonnegative(),
    stale_count: z.number().int().nonnegative(),
    dead_count: z.number().int().nonnegative(),
    coverage_pct: z.number().min(0).max(100),
    macro_calendar: macroCalendarSchema,
    timestamp: z.string(),
    ...cacheFields,
  })
  .meta({ id: "SignalsSnapshot" });

export const signalHistoryQuerySchema = z.object({
  signal_key: z.enum(SIGNAL_KEYS).default("BTC_RSI"),
  ...pageQuery,
});

export const signalHistoryItemSchema = z
  .object({
    recorded_at: z.string(),
    signal_key: z.enum(SIGNAL_KEYS),
    display_name: z.string(),
    value: z.number(),
  })
  .meta({ id: "SignalHistoryItem" });

export const signalHistoryPageSchema = z
  .object({
    items: z.array(signalHistoryItemSchema),
    total: z.number().int().nonnegative(),
    page: z.number().int().min(1),
    per_page: z.number().int().min(1).max(500),
    ...cacheFields,
  })
  .meta({ id: "SignalHistoryPage" });

export const macroAlertSchema = z
  .object({
    alert: z.enum(["RISK_OFF", "FED_HAWKISH"]),
    risk_off_score: z.number().int().min(0).max(100),
    fed_hawkishness: z.number().int().min(0).max(100),
    key_driver: z.string(),
    message: z.string(),
  })
  .meta({ id: "MacroAlert" });

export const macroCorrelationItemSchema = z
  .object({
    key: z.enum(["US10Y", "DXY", "GOLD", "NASDAQ", "BTC_NASDAQ_CORR"]),
    display_name: z.string(),
    value: z.number().nullable().describe("The series' last close as quoted; for BTC_NASDAQ_CORR the correlation, at 4 decimals."),
    change_24h_pct: z.number().nullable().describe("Change from the previous observation, in percent, at 4 decimals; null for BTC_NASDAQ_CORR."),
    correlation_30d: z.number().min(-1).max(1).nullable().describe("Correlation of the series' day-over-day returns with BTC's over its last 30 observations, at 4 decimals; null for BTC_NASDAQ_CORR."),
    status: z.enum(SIGNAL_STATUSES),
    last_updated: z.string().nullable(),
  })
  .meta({ id: "MacroCorrelationItem" });

export const macroCorrelationSchema = z
  .object({
    signals: z.array(macroCorrelationItemSchema).length(5),
    risk_off_score: z.number().int().min(0).max(100),
    fed_hawkishness: z.number().int().min(0).max(100),
    assessment: z
      .enum(["RISK_ON", "NEUTRAL", "RISK_OFF"])
      .describe(
        "from risk_off_score, which reads day-over-day moves (≥ 60 RISK_OFF, ≤ 40 RISK_ON). The verdict's macro_context reads the signals' levels instead, so the two can differ",
      ),
    alerts: z.array(macroAlertSchema),
    timestamp: z.string(),
    ...cacheFields,
  })
  .meta({ id: "MacroCorrelation" });

export const candlesQuerySchema = z.object({
  asset: z.enum(["BTC", "ETH", "SOL", "TAO"]),
  interval: z.enum(["1h", "4h", "1d"]).default("1h"),
  limit: queryInt(1, 1000).default(100),
});

export const candlesResponseSchema = z
  .object({
    asset: z.enum(["BTC", "ETH", "SOL", "TAO"]),
    interval: z.enum(["1h", "4h", "1d"]),
    candles: z.array(
      z.object({
        t: z.number().int().meta({ description: "Bar open time, Unix epoch seconds (UTC)" }),
        o: z.number(),
        h: z.number(),
        l: z.number(),
        c: z.number(),
        v: z.number().meta({ description: "Volume in the base asset" }),
      }),
    ),
    ...cacheFields,
  })
  .meta({ id: "Candles" });
