import { DEFAULT_COSTS } from "../domain/ghost/costs.js";
import { STARTING_EQUITY_USD } from "../domain/ghost/position-sizing.js";
import { entryOutcomes } from "../domain/ghost/random-entry.js";
import type { ClosedTrade } from "../domain/ghost/trade.js";
import { BASELINE_LOOKBACK_MS, exitBaseline } from "../domain/weights/exit-baseline.js";
import type { Asset } from "../domain/signals/signal-keys.js";
import type { MarketFeed } from "../feeds/market-feed.js";

const HOUR = 3_600_000;

/**
 * Each trade's no-skill baseline for the signal weights (src/domain/weights/exit-baseline.ts):
 * random entries with the Ghost Trader's exits and costs over the 90 days before its entry,
 * computed from the feed's hourly bars once per asset per update cycle. Only measured baselines
 * are returned: a trade whose bars are not there (none bundled, or a live feed that has not
 * polled them yet) is absent, and graded against a coin flip until they are.
 */
export function exitBaselines(feed: Pick<MarketFeed, "candles">, trades: readonly ClosedTrade[]): ReadonlyMap<string, number> {
  const byTrade = new Map<string, number>();
  const assets = new Set<Asset>(trades.map((t) => t.asset));
  for (const asset of assets) {
    const own = trades.filter((t) => t.asset === asset);
    const first = Math.min(...own.map((t) => t.entryTime)) - BASELINE_LOOKBACK_MS;
    const last = Math.max(...own.map((t) => t.entryTime));
    const limit = Math.ceil((last - first) / HOUR) + 1;
    const candles = feed.candles(asset, "1h", last, limit).filter((c) => c.t >= first);
    const outcomes = entryOutcomes(candles, DEFAULT_COSTS, STARTING_EQUITY_USD);
    for (const t of own) {
      const b = exitBaseline(outcomes, t.entryTime);
      if (b !== null) byTrade.set(t.id, b);
    }
  }
  return byTrade;
}
