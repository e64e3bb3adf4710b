import type { BacktestReport } from "../domain/ghost/backtest.js";
import { DEFAULT_COSTS, type CostModel } from "../domain/ghost/costs.js";
import { STARTING_EQUITY_USD } from "../domain/ghost/position-sizing.js";
import { traderPerformance, type TraderPerformance } from "../domain/ghost/trader-performance.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import { barsBetween } from "./engine-backtest.js";
import { HELD_OUT_FROM } from "../domain/evaluation/verdict-evaluation.js";

const HOUR = 3_600_000;

export type SpanName = "whole" | "to 2022-12-31" | "from 2023-01-01";

export interface SpanPerformance {
  readonly span: SpanName;
  readonly performance: TraderPerformance;
}

/**
 * One backtest's figures over the whole range and over each protocol span inside it, with both
 * benchmarks computed over that span's own bars. A trade belongs to the span it was entered in;
 * a span without any bar of the asset (SOL before 2020, TAO before 2024) is left out.
 */
export function backtestSpans(feed: MarketFeed, report: BacktestReport, from: number, to: number, costs: CostModel = DEFAULT_COSTS): SpanPerformance[] {
  const spans: [SpanName, number, number][] = [
    ["whole", from, to],
    ["to 2022-12-31", from, Math.min(to, HELD_OUT_FROM)],
    ["from 2023-01-01", Math.max(from, HELD_OUT_FROM), to],
  ];
  const out: SpanPerformance[] = [];
  for (const [span, a, b] of spans) {
    if (!(a < b)) continue;
    const candles = barsBetween(feed, report.asset, a, b);
    const first = candles[0];
    const last = candles[candles.length - 1];
    if (first === undefined || last === undefined) continue;
    const trades = report.trades.filter((t) => t.entryTime >= first.t && t.entryTime < last.t + HOUR);
    // The position left open by the run is held at the end of the spans that end with the run;
    // its time and capital count in the exposure of the span it was entered in (as its trade would).
    const held = b >= to ? report.finalState.position : null;
    const openPosition = held !== null && held.entryTime >= first.t ? held : null;
    out.push({
      span,
      performance: traderPerformance({
        trades,
        candles,
        from: first.t,
        to: last.t + HOUR,
        startingEquityUsd: STARTING_EQUITY_USD,
        costs,
        openPositions: held === null ? 0 : 1,
        openPosition,
      }),
    });
  }
  return out;
}
