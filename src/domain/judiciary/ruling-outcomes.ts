import type { TaoRuling } from "../market/vocabulary.js";
import { directionOf } from "./score-bands.js";
import { priceAt, type PricePoint } from "../calibration/price-path.js";

export interface RulingAt {
  readonly at: number;
  readonly ruling: TaoRuling;
}

export interface RulingOutcome {
  readonly ruling: TaoRuling;
  readonly count: number;
  /** Share of all rulings, 0..1. */
  readonly share: number;
  /** Rulings with a price at both ends of the horizon. */
  readonly graded: number;
  /** Mean and median forward return over the horizon, in %; null when none graded. */
  readonly meanReturnPct: number | null;
  readonly medianReturnPct: number | null;
  /** Share of graded rulings whose forward return had the ruling's sign (BULLISH up, BEARISH down); null for non-directional. */
  readonly hitRate: number | null;
}

/**
 * How each ruling's next-`horizonMs` return compares (issue 7: the replay report users judge
 * the engine by). A ruling is graded only when the horizon ends inside the price series, so
 * the last day of data never counts as a flat outcome.
 */
export function rulingOutcomes(rulings: readonly RulingAt[], prices: readonly PricePoint[], horizonMs = 24 * 3_600_000): RulingOutcome[] {
  const last = prices.length === 0 ? -Infinity : (prices[prices.length - 1] as PricePoint).t;
  const byRuling = new Map<TaoRuling, { count: number; returns: number[] }>();
  for (const r of rulings) {
    const row = byRuling.get(r.ruling) ?? { count: 0, returns: [] };
    row.count++;
    const p0 = priceAt(prices, r.at);
    const p1 = r.at + horizonMs <= last ? priceAt(prices, r.at + horizonMs) : null;
    if (p0 !== null && p1 !== null && p0 > 0) row.returns.push(((p1 - p0) / p0) * 100);
    byRuling.set(r.ruling, row);
  }
  const out: RulingOutcome[] = [];
  for (const [ruling, row] of byRuling) {
    const sorted = [...row.returns].sort((a, b) => a - b);
    const n = sorted.length;
    const dir = directionOf(ruling);
    const directional = ruling !== "REDUCE" && ruling !== "AVOID" && dir !== "NEUTRAL";
    const hits = sorted.filter((x) => (dir === "BULLISH" ? x > 0 : x < 0)).length;
    out.push({
      ruling,
      count: row.count,
      share: rulings.length === 0 ? 0 : row.count / rulings.length,
      graded: n,
      meanReturnPct: n === 0 ? null : sorted.reduce((s, x) => s + x, 0) / n,
      medianReturnPct: n === 0 ? null : n % 2 === 1 ? (sorted[(n - 1) / 2] as number) : ((sorted[n / 2 - 1] as number) + (sorted[n / 2] as number)) / 2,
      hitRate: !directional || n === 0 ? null : hits / n,
    });
  }
  const order: readonly TaoRuling[] = ["STRONG_BUY", "BUY", "ACCUMULATE", "HOLD", "REDUCE", "SELL", "STRONG_SELL", "AVOID"];
  return out.sort((a, b) => order.indexOf(a.ruling) - order.indexOf(b.ruling));
}
