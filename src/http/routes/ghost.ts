import { roundOrNull } from "../../domain/numbers/round-to.js";
import { defineRoute, type Route } from "../route.js";
import type { AppDeps } from "../app-deps.js";
import {
  btcTrackRecordSchema,
  ethTrackRecordSchema,
  ghostStatsSchema,
  regimeStatsSchema,
  solTrackRecordSchema,
  taoStatusSchema,
  taoTrackRecordSchema,
} from "../schemas/ghost.js";
import { ghostPerformanceQuerySchema, ghostPerformanceSchema } from "../schemas/ghost-performance.js";
import { DEFAULT_COSTS } from "../../domain/ghost/costs.js";
import { ghostStatsFigures, PAPER_VALIDATION_TARGET } from "../../domain/ghost/ghost-stats.js";
import { initialGhostState } from "../../domain/ghost/ghost-trader.js";
import { passedCount } from "../../domain/ghost/ledger-integrity.js";
import { regimeStats } from "../../domain/ghost/regime-stats.js";
import { taoStatusView } from "../../domain/ghost/tao-status-view.js";
import { trackRecordStats } from "../../domain/ghost/track-record-stats.js";
import { tradeView } from "../../domain/ghost/track-record-view.js";
import type { ClosedTrade } from "../../domain/ghost/trade.js";
import { countedClosed } from "../../domain/ghost/trade-validity.js";
import { ASSETS, type Asset } from "../../domain/signals/signal-keys.js";
import { countedUnderSprints, currentSprint, periodMarkFor, sharedCutoff, sinceFor } from "../../domain/ghost/sprints.js";
import { readCheckedLedger } from "../../application/ledger-snapshot.js";
import { assetPerformance } from "../../application/ghost-performance.js";
import { readTaoSignoff, signedOffInPeriod } from "../../application/tao-signoff.js";
import type { CouncilSession } from "../../domain/council/council-types.js";
import { currentRegimeAt } from "../../application/current-regime.js";
import { hourlyBarIsCurrent } from "../../domain/signals/signal-status.js";

const HOUR = 3_600_000;
/** TTLs: SPEC Limits (ghost stats 300 s, regime stats 300 s), DECISIONS 2 (TAO status 30 s, track records 300 s). */
const TTL = { status: 30, trackRecord: 300, ghostStats: 300, regimeStats: 300, performance: 300 } as const;

const PRAGUE = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/Prague",
  dateStyle: "medium",
  timeStyle: "long",
});

/** Trades closed by market time `at` (a restarted replay never shows trades from its future). */
function closedBy(trades: readonly ClosedTrade[], at: number): ClosedTrade[] {
  return trades.filter((t) => t.exitTime <= at);
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function taoLatestVerdict(s: CouncilSession | null) {
  if (s === null) return null;
  return {
    ruling: s.ruling,
    confidence: s.confidence,
    agentVotes: Object.fromEntries(s.votes.map((v) => [v.agent, { ruling: v.ruling, confidence: v.confidence }])),
    riskFlags: [...s.riskFlags],
    createdAt: new Date(s.at).toISOString(),
  };
}

/**
 * Ghost Trader endpoints (SPEC 3, 15, 16, 17 and DECISIONS 7's BTC track record). They read the
 * ledger and the per-asset status snapshot the GhostTrader actors write each turn, never an actor.
 */
export function ghostRoutes(deps: AppDeps): Route[] {
  const { store, marketClock, feed } = deps;
  const ledger = store.ghostLedger;

  const trackRecord = async (asset: Asset) => {
    const now = marketClock.now();
    const [trades, marks] = await Promise.all([ledger.closed(asset), ledger.sprints()]);
    const counted = countedUnderSprints(closedBy(trades, now), marks).sort((a, b) => a.entryTime - b.entryTime || a.exitTime - b.exitTime);
    return { trades: counted.map(tradeView), stats: trackRecordStats(counted) };
  };

  const trackRecordRoute = (asset: Exclude<Asset, "TAO">, path: string, response: typeof btcTrackRecordSchema | typeof ethTrackRecordSchema | typeof solTrackRecordSchema) =>
    defineRoute({
      method: "get",
      path,
      summary: `${asset} Ghost Trader track record: closed validated paper trades, oldest first`,
      tags: ["ghost"],
      access: { kind: "public" },
      response,
      cacheTtlSeconds: TTL.trackRecord,
      handler: async () => {
        // tradeView is typed loosely (its size key varies by asset); the router checks the body
        // against this route's own schema before it is sent, so the per-asset shape is enforced.
        const body = await trackRecord(asset);
        return body as never;
      },
    });

  return [
    defineRoute({
      method: "get",
      path: "/v1/tao/status",
      summary: "TAO Ghost Trader status, current paper trade and the 8 entry gates",
      tags: ["ghost"],
      access: { kind: "public" },
      response: taoStatusSchema,
      cacheTtlSeconds: TTL.status,
      handler: async () => {
        const now = marketClock.now();
        const [snap, trades, marks, session, signoff, regime] = await Promise.all([
          ledger.snapshot("TAO"),
          ledger.closed("TAO"),
          ledger.sprints(),
          store.councilSessions.latest("TAO", now),
          readTaoSignoff(store),
          currentRegimeAt(store.regimeHistory, now),
        ]);
        const state = { ...initialGhostState("TAO", "live_paper"), position: snap?.position ?? null };
        const current = snap !== null && hourlyBarIsCurrent(snap.barT, now);
        const lastClose = snap?.barT === null || snap?.barT === undefined ? null : new Date(snap.barT + HOUR).toISOString();
        const view = taoStatusView({
          state,
          // A gate board of a bar that is no longer current (weeks old past the end of TAO's
          // history) would show passes no entry can act on.
          gates: current ? snap.gates : null,
          noGatesReason: lastClose === null ? "liquidity: no closed bar evaluated yet" : `liquidity: no TAO bar since ${lastClose}, so no entry can be made`,
          liquidity: snap?.liquidity ?? { status: "UNKNOWN", depthUsd: null, live: false },
          // SPEC "latest TAO/USD": the last bar's figures only while that bar is current (LIVE,
          // DECISIONS 4); past the end of the history or in an outage they are null, not old ones.
          taoPrice: current ? snap.price : null,
          markPrice: snap?.price ?? null,
          // Shown at 2 decimals, as the council snapshots; the gates read them unrounded.
          rsi1h: current ? roundOrNull(snap.rsi1h, 2) : null,
          ema200: current ? roundOrNull(snap.ema200, 2) : null,
          regime: regime?.report.regime ?? null,
          ledger: countedUnderSprints(closedBy(trades, now), marks),
          sinceMs: sinceFor("TAO", marks),
          // `ghost signoff` (src/cli/commands/ghost.ts); a later restart voids it.
          signedOff: signedOffInPeriod(signoff, { sinceMs: sinceFor("TAO", marks), markId: periodMarkFor("TAO", marks)?.id ?? null }),
          costs: DEFAULT_COSTS,
          generatedAt: new Date(now).toISOString(),
        });
        return { ...view, latestVerdict: taoLatestVerdict(session) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/tao/track-record",
      summary: "TAO Ghost Trader track record with paper validation progress",
      tags: ["ghost"],
      access: { kind: "public" },
      response: taoTrackRecordSchema,
      cacheTtlSeconds: TTL.trackRecord,
      handler: async () => {
        const body = await trackRecord("TAO");
        return {
          // Checked against taoTrackRecordSchema by the router, as for the other assets.
          trades: body.trades as never,
          stats: {
            ...body.stats,
            validatedPaperTrades: Math.min(PAPER_VALIDATION_TARGET, body.trades.length),
            paperValidationTarget: PAPER_VALIDATION_TARGET as 10,
          },
        };
      },
    }),
    trackRecordRoute("SOL", "/v1/sol/track-record", solTrackRecordSchema),
    trackRecordRoute("ETH", "/v1/eth/track-record", ethTrackRecordSchema),
    trackRecordRoute("BTC", "/v1/btc/track-record", btcTrackRecordSchema),
    defineRoute({
      method: "get",
      path: "/v1/ghost/stats",
      summary: "Ghost Trader summary over all assets since the current sprint",
      tags: ["ghost"],
      access: { kind: "public" },
      response: ghostStatsSchema,
      cacheTtlSeconds: TTL.ghostStats,
      handler: async () => {
        const now = marketClock.now();
        const { snapshot, checks, marks } = await readCheckedLedger(ledger, now);
        const cutoff = sharedCutoff(ASSETS, marks);
        return {
          ...ghostStatsFigures(snapshot.closed, snapshot.open, cutoff),
          since: isoDate(cutoff),
          sprint: currentSprint(marks).sprint,
          tests_passing: passedCount(checks),
        };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/ghost/performance",
      summary: "A Ghost Trader's current sprint: the figures of freqtrade's backtest report (Sharpe, Sortino and Calmar over daily equity returns, not per trade) with buy & hold and random-entry benchmarks",
      tags: ["ghost"],
      access: { kind: "public" },
      query: ghostPerformanceQuerySchema,
      response: ghostPerformanceSchema,
      cacheTtlSeconds: TTL.performance,
      errors: ["validation_failed"],
      handler: async ({ query }) => {
        const p = await assetPerformance(ledger, feed, query.asset, marketClock.now());
        return { ...p, byEntryMode: [...p.byEntryMode], byExitReason: [...p.byExitReason], byYear: [...p.byYear] };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/regime/stats",
      summary: "Ghost Trader results grouped by the regime at entry",
      tags: ["regime"],
      access: { kind: "key", tier: "free" },
      response: regimeStatsSchema,
      cacheTtlSeconds: TTL.regimeStats,
      handler: async () => {
        const now = marketClock.now();
        const [all, marks] = await Promise.all([ledger.closed(), ledger.sprints()]);
        const cutoff = sharedCutoff(ASSETS, marks);
        const stats = regimeStats(countedClosed(closedBy(all, now), cutoff));
        return {
          ...stats,
          regimes: [...stats.regimes],
          since: isoDate(cutoff),
          generated_at: `${PRAGUE.format(new Date(now))}`,
        };
      },
    }),
  ];
}
