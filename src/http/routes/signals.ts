import { defineRoute, type Route } from "../route.js";
import type { AppDeps } from "../app-deps.js";
import {
  candlesQuerySchema,
  candlesResponseSchema,
  macroCorrelationSchema,
  signalHistoryPageSchema,
  signalHistoryQuerySchema,
  signalsSnapshotSchema,
} from "../schemas/signals.js";
import { buildSignalsSnapshot } from "../../domain/signals/snapshot.js";
import { macroCorrelationAt } from "../../application/macro-now.js";
import { calendarStatus } from "../../domain/signals/macro-calendar.js";
import { SIGNAL_CATALOGUE } from "../../domain/signals/catalogue.js";

/** TTLs: SPEC.md Limits (signals 30 s, signal history 300 s), DECISIONS 2 (macro 300 s), DECISIONS 7 (candles 60 s). */
const TTL = { latest: 30, history: 300, macro: 300, candles: 60 } as const;

/**
 * The market-data endpoints of issue 5. Each reads the feed "as of" market time, so a replay
 * never shows what happened after its clock; the history endpoint reads only what the
 * SignalRecorder stored.
 */
export function signalRoutes(deps: AppDeps): Route[] {
  const { feed, marketClock } = deps;
  return [
    defineRoute({
      method: "get",
      path: "/v1/signals/latest",
      summary: "Snapshot of the 27 signals with status and the macro calendar",
      tags: ["signals"],
      access: { kind: "key", tier: "basic" },
      response: signalsSnapshotSchema,
      cacheTtlSeconds: TTL.latest,
      handler: async () => {
        const at = marketClock.now();
        const snapshot = buildSignalsSnapshot({
          mode: feed.mode,
          at,
          readings: feed.latestReadings(at),
          calendar: calendarStatus(feed.calendarEvents(), at),
        });
        // The domain hands out readonly arrays; the body is a fresh copy the framework may extend.
        return { ...snapshot, signals: [...snapshot.signals] };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/signals/history",
      summary: "Recorded history of one signal, newest first",
      description: "Only what the service recorded; a page past the end is empty and still carries the true total.",
      tags: ["signals"],
      access: { kind: "key", tier: "pro" },
      query: signalHistoryQuerySchema,
      response: signalHistoryPageSchema,
      cacheTtlSeconds: TTL.history,
      errors: ["validation_failed"],
      handler: async ({ query }) => {
        const { signal_key, page, per_page } = query;
        const result = await deps.store.signalHistory.page({ signalKey: signal_key, asOf: marketClock.now(), page, perPage: per_page });
        const display = SIGNAL_CATALOGUE[signal_key].displayName;
        return {
          items: result.items.map((p) => ({
            recorded_at: new Date(p.recordedAt).toISOString(),
            signal_key: p.signalKey,
            display_name: display,
            value: p.value,
          })),
          total: result.total,
          page,
          per_page,
        };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/macro/correlation",
      summary: "Cross-asset macro breakdown: 5 series, Risk-Off Score, Fed hawkishness, alerts",
      tags: ["signals"],
      access: { kind: "key", tier: "basic" },
      response: macroCorrelationSchema,
      cacheTtlSeconds: TTL.macro,
      handler: async () => {
        const macro = macroCorrelationAt(feed, marketClock.now());
        return { ...macro, signals: [...macro.signals], alerts: [...macro.alerts] };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/market/candles",
      summary: "OHLCV bars closed at or before market time, oldest first",
      tags: ["market"],
      access: { kind: "key", tier: "free" },
      query: candlesQuerySchema,
      response: candlesResponseSchema,
      cacheTtlSeconds: TTL.candles,
      errors: ["validation_failed"],
      handler: async ({ query }) => {
        const bars = feed.candles(query.asset, query.interval, marketClock.now(), query.limit);
        return {
          asset: query.asset,
          interval: query.interval,
          // Epoch seconds: SPEC.md's convention for integer timestamps, and what charting libraries take.
          candles: bars.map((b) => ({ t: Math.floor(b.t / 1000), o: b.o, h: b.h, l: b.l, c: b.c, v: b.v })),
        };
      },
    }),
  ];
}
