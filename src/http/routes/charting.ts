import { roundTo } from "../../domain/numbers/round-to.js";
import { defineRoute, type Route } from "../route.js";
import type { AppDeps } from "../app-deps.js";
import { chartingSignalSchema } from "../schemas/judiciary.js";
import { buildSignalsSnapshot } from "../../domain/signals/snapshot.js";
import { calendarStatus } from "../../domain/signals/macro-calendar.js";
import { DARK_POOL_KEYS, darkPoolComposite } from "../../domain/signals/dark-pool.js";
import { currentRegimeAt } from "../../application/current-regime.js";
import { statusAsOf } from "../../domain/ghost/ghost-trader.js";
import { hourlyBarIsCurrent, signalStatus } from "../../domain/signals/signal-status.js";

/** DECISIONS 2: charting 30 s. */
const TTL = 30;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/**
 * A verdict older than three of its 5-minute slots is no current ruling (no live price, or the
 * Judiciary has stopped): PENDING, rather than an old call plotted on the newest bar.
 */
const CURRENT_VERDICT_MS = 15 * 60_000;

/**
 * SPEC "Charting payload": one flat object per bar close for an indicator script, from the latest
 * BTC verdict, the regime, the BTC indicators and the BTC Ghost Trader's status snapshot. Numbers
 * that are unavailable are 0 and a missing or no longer current verdict is PENDING, as SPEC says.
 */
export function chartingRoutes(deps: AppDeps): Route[] {
  const { store, feed, marketClock } = deps;
  return [
    defineRoute({
      method: "get",
      path: "/v1/charting/signal",
      summary: "Flat BTC payload for charting indicators",
      tags: ["verdict"],
      access: { kind: "key", tier: "free" },
      response: chartingSignalSchema,
      cacheTtlSeconds: TTL,
      handler: async () => {
        const now = marketClock.now();
        const [verdict, regime, ghost] = await Promise.all([
          store.verdicts.latest("BTC", now),
          currentRegimeAt(store.regimeHistory, now),
          store.ghostLedger.snapshot("BTC"),
        ]);
        // Indicators of a bar from before a gap in the price are not the current bar's: 0, as unavailable.
        const observed = feed.technicals("BTC", "1h", now);
        const tech = observed !== null && signalStatus(observed.observedAt, HOUR, now) === "LIVE" ? observed.values : null;
        const snapshot = buildSignalsSnapshot({ mode: feed.mode, at: now, readings: feed.latestReadings(now), calendar: calendarStatus(feed.calendarEvents(), now) });
        const darkPool = darkPoolComposite(
          DARK_POOL_KEYS.map((key) => {
            const item = snapshot.signals.find((s) => s.key === key);
            return {
              key,
              status: item?.status ?? "DEAD",
              latest: item?.value ?? null,
              history: feed.readingsBetween(key, now - 90 * DAY, now).map((r) => r.value),
            };
          }),
        );
        const current = verdict !== null && now - verdict.at <= CURRENT_VERDICT_MS ? verdict : null;
        // BTC never rules AVOID; the guard only narrows the type to the charting scale.
        const ruling = current?.verdict.ruling;
        return {
          verdict: ruling === undefined || ruling === "AVOID" ? ("PENDING" as const) : ruling,
          confidence: current === null ? 0 : Math.round(current.verdict.confidence * 1000) / 10,
          regime: regime?.report.regime ?? ("UNKNOWN" as const),
          dark_pool: darkPool,
          // 2 decimals, as every published indicator (the council snapshots, the TAO gate board).
          rsi: roundTo(tech?.rsi14 ?? 0, 2),
          ema_200: roundTo(tech?.ema200 ?? 0, 2),
          // SPEC: live spot. Live: the forming bar's price at the last minute's poll (0 once it is
          // over 5 minutes old); replay: the last hourly close, the finest price the history has.
          btc_price: feed.spotPrice("BTC", now)?.value ?? 0,
          // A READY from before a gap has lapsed (see statusAsOf).
          ghost_status: ghost === null ? "WAITING" : statusAsOf(ghost.status, hourlyBarIsCurrent(ghost.barT, now)),
          timestamp: Math.floor(now / 1000),
        };
      },
    }),
  ];
}
