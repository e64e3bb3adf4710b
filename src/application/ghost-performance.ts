import { DEFAULT_COSTS } from "../domain/ghost/costs.js";
import { STARTING_EQUITY_USD } from "../domain/ghost/position-sizing.js";
import { traderPerformance, type TraderPerformance } from "../domain/ghost/trader-performance.js";
import type { Asset } from "../domain/signals/signal-keys.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import type { GhostLedgerRepository } from "../store/ports/ghost-ledger.js";
import { countedUnderSprints, openUnderSprints, sinceFor } from "../domain/ghost/sprints.js";

const HOUR = 3_600_000;

export interface AssetPerformance extends TraderPerformance {
  readonly asset: Asset;
  readonly sprintSince: string;
  readonly costs: typeof DEFAULT_COSTS;
}

/**
 * One asset's Ghost Trader over its current sprint (its own cutoff, DECISIONS 7), as of market
 * time `now`: the counted closed trades, the hourly bars closed inside the span for the
 * benchmarks, and the open position (a trader holding one is not "standing aside").
 */
export async function assetPerformance(
  ledger: Pick<GhostLedgerRepository, "closed" | "sprints" | "snapshot">,
  feed: Pick<MarketFeed, "candles">,
  asset: Asset,
  now: number,
): Promise<AssetPerformance> {
  const [closed, marks, snap] = await Promise.all([ledger.closed(asset), ledger.sprints(), ledger.snapshot(asset)]);
  const counted = countedUnderSprints(closed.filter((t) => t.exitTime <= now), marks);
  const since = sinceFor(asset, marks);
  // Without a launch mark (a store nobody launched a trader on) the span starts at the first trade.
  const from = since > 0 ? since : Math.min(now, ...counted.map((t) => t.entryTime));
  const bars = Math.max(0, Math.ceil((now - from) / HOUR)) + 1;
  const candles = feed.candles(asset, "1h", now, bars).filter((c) => c.t >= from && c.t + HOUR <= now);
  const open = openUnderSprints(snap?.position ? [snap.position] : [], marks);
  const perf = traderPerformance({
    trades: counted,
    candles,
    from,
    to: Math.max(from, now),
    startingEquityUsd: STARTING_EQUITY_USD,
    costs: DEFAULT_COSTS,
    // Any position held, counted or carried over from before a restart: a trader holding one
    // evaluates no gates, so it is not "standing aside" (only a counted one enters the exposure).
    openPositions: snap?.position ? 1 : 0,
    openPosition: open[0] ?? null,
  });
  return { asset, sprintSince: new Date(from).toISOString(), ...perf, costs: DEFAULT_COSTS };
}
