import type { Asset } from "../signals/signal-keys.js";
import { ASSET_RULES } from "./asset-rules.js";
import type { BarInput } from "./bar-input.js";
import { DEFAULT_COSTS, type CostModel } from "./costs.js";
import { initialGhostState, stepGhost, type GhostState } from "./ghost-trader.js";
import { roundTo } from "../numbers/round-to.js";
import { performanceStats, type PerformanceStats } from "./performance-stats.js";
import { STARTING_EQUITY_USD } from "./position-sizing.js";
import { trackRecordStats, type TrackRecordStats } from "./track-record-stats.js";
import type { ClosedTrade } from "./trade.js";

export interface BacktestReport {
  readonly asset: Asset;
  readonly bars: number;
  readonly from: string | null;
  readonly to: string | null;
  readonly trades: readonly ClosedTrade[];
  readonly stats: TrackRecordStats;
  readonly performance: PerformanceStats;
  /** Close-to-close change of the asset over the same bars, % (the buy-and-hold benchmark). */
  readonly buyAndHoldPct: number;
  /** A position still open at the end is reported, not force-closed. */
  readonly openAtEnd: boolean;
  readonly finalState: GhostState;
}

/**
 * Runs one asset's Ghost Trader over a stream of bar inputs with the same step function the
 * actors use. Backtest trades are `synthetic`: the backtest never writes to the ledger and its
 * trades never count in published stats (DECISIONS 1).
 */
export function runBacktest(asset: Asset, inputs: Iterable<BarInput>, costs: CostModel = DEFAULT_COSTS): BacktestReport {
  let state = initialGhostState(asset, "synthetic");
  const trades: ClosedTrade[] = [];
  const rules = ASSET_RULES[asset];
  let bars = 0;
  let first: BarInput | null = null;
  let last: BarInput | null = null;
  for (const input of inputs) {
    if (first === null) first = input;
    last = input;
    bars += 1;
    const r = stepGhost(state, input, rules, costs);
    state = r.state;
    trades.push(...r.closed);
  }
  return {
    asset,
    bars,
    from: first === null ? null : new Date(first.candle.t).toISOString(),
    to: last === null ? null : new Date(last.candle.t).toISOString(),
    trades,
    stats: trackRecordStats(trades),
    performance: performanceStats(trades, STARTING_EQUITY_USD),
    buyAndHoldPct: first === null || last === null ? 0 : roundTo((last.candle.c / first.candle.c - 1) * 100, 2),
    openAtEnd: state.position !== null,
    finalState: state,
  };
}
