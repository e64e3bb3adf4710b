import { SeededRandom } from "../regime/prng.js";
import type { Candle } from "../signals/reading.js";
import { feeUsd, marketBuyPrice, type CostModel } from "./costs.js";
import { initialStop } from "./exit-levels.js";
import { roundTo } from "../numbers/round-to.js";
import { roundUsd } from "./money.js";
import { closeTrade } from "./close-trade.js";
import { applyBar, closeFill } from "./position-exits.js";
import { positionSize } from "./position-sizing.js";
import type { OpenPosition } from "./trade.js";

/**
 * The no-skill baseline of the Ghost Trader's exits (issue 16): what entering at a random bar,
 * with the same stop, take-profits, trail, time limit, sizing and costs, would have made over
 * the same span. A trader whose entries carry information beats it; one that does not, does not.
 */
export interface EntryOutcome {
  /** Open time of the entry bar (the trader also fills at a bar's open). */
  readonly entryTime: number;
  readonly exitTime: number;
  readonly pnlUsd: number;
  readonly pnlPct: number;
  /** True when the candles ended before its exit: what was left was sold at the last close. */
  readonly markedToMarket?: boolean;
}

/**
 * Every bar of `candles` (hourly, oldest first) taken as an entry at its open and run through
 * `applyBar` until the position closes. Sized from `equityUsd` each time, by the trader's rule;
 * the trader applies that rule to its *current* equity, so USD figures drift apart as its equity
 * moves, and a comparison of skill uses `pnlPct` (per position, which sizing does not change). An entry whose exit is not reached by the last candle is marked to market: what
 * it still holds is sold at the last close as a market exit (slippage and fee), as a backtest
 * force-closes at its end. Leaving such entries out kept only the quick exits of the span's last
 * week (stops and TP2s) and dropped the slow ones (trails, drifts toward the 7-day exit), which
 * moved the no-skill baseline by several USD a trade and points of win rate.
 */
export function entryOutcomes(candles: readonly Candle[], costs: CostModel, equityUsd: number): EntryOutcome[] {
  const out: EntryOutcome[] = [];
  const last = candles[candles.length - 1];
  for (let i = 0; i < candles.length; i++) {
    const bar = candles[i] as Candle;
    let pos: OpenPosition | null = randomPosition(bar, costs, equityUsd);
    for (let j = i; j < candles.length && pos !== null; j++) {
      const step = applyBar(pos, candles[j] as Candle, costs);
      if (step.closed !== null) {
        out.push({ entryTime: bar.t, exitTime: step.closed.exitTime, pnlUsd: step.closed.pnlUsd, pnlPct: step.closed.pnlPct });
      }
      pos = step.position;
    }
    if (pos !== null && last !== undefined) {
      // A market sale at the close, as a time exit makes; the outcome keeps no exit reason.
      const closed = closeTrade(pos, closeFill(pos, last, "TIME_EXIT", costs));
      out.push({ entryTime: bar.t, exitTime: closed.exitTime, pnlUsd: closed.pnlUsd, pnlPct: closed.pnlPct, markedToMarket: true });
    }
  }
  return out;
}

function randomPosition(bar: Candle, costs: CostModel, equityUsd: number): OpenPosition {
  const entryPrice = marketBuyPrice(bar.o, costs);
  const stopLoss = initialStop(entryPrice);
  const size = positionSize(equityUsd, entryPrice, stopLoss);
  return {
    id: `random-${bar.t}`,
    asset: "BTC",
    origin: "synthetic",
    mode: "A",
    entryTime: bar.t,
    entryPrice,
    size,
    entryFeeUsd: roundUsd(feeUsd(entryPrice, size, costs)),
    regimeAtEntry: null,
    signalsAtEntry: [],
    triggerId: null,
    triggerKind: "judiciary",
    qualityScore: 0,
    extras: { liquidityAtEntry: null, assetBtcRatioAtEntry: null, networkHealthAtEntry: null },
    remaining: size,
    stopLoss,
    tp1Hit: false,
    hwm: null,
    fills: [],
  };
}

/** A statistic over the draws: mean and the 5th–95th percentile band (90 %). */
export interface Band {
  readonly mean: number;
  readonly p5: number;
  readonly p95: number;
}

export interface RandomEntryFigures {
  /** Every bar of the span is one; those whose exit the span did not reach are marked to market at its last close. */
  readonly entries: number;
  /** Over every such entry: the exits' win rate with no skill at all, % (P&L > 0 is a win). */
  readonly winRatePct: number;
  readonly expectancyUsd: number;
  readonly expectancyPct: number;
  readonly profitFactor: number | null;
}

export interface RandomEntryBenchmark {
  readonly seed: number;
  readonly draws: number;
  /** The trader's number of closed trades; each draw picks that many entries. */
  readonly tradesPerDraw: number;
  /** The population every draw samples from. */
  readonly everyEntry: RandomEntryFigures;
  /** Null when the trader made no trades: there is nothing to match (`everyEntry` still stands). */
  readonly matched: {
    /** Null when over 5 % of draws had no losing trade (too few trades per draw for the ratio). */
    readonly profitFactor: Band | null;
    readonly expectancyUsd: Band;
    /** Mean P&L per trade in % of its position cost: the figure to judge skill by (sizing-free). */
    readonly expectancyPct: Band;
    readonly winRatePct: Band;
    readonly totalPnlUsd: Band;
  } | null;
  /** Why `matched` is null, or null. */
  readonly note: string | null;
}

/**
 * Shown verbatim on the dashboard, so it speaks of what the figures are rather than naming the
 * JSON field that holds them.
 */
export const NO_TRADES_NOTE =
  "the trader made no trades, so there is no trade count to draw random entries for; the figures over every entry are what these exits make with no skill at all";

export const RANDOM_ENTRY_SEED = 16;
export const RANDOM_ENTRY_DRAWS = 1000;

/**
 * `draws` seeded samples of `trades` entries each, drawn uniformly (with replacement) from
 * `outcomes`. Entries are independent draws rather than a non-overlapping path: profit factor,
 * expectancy and win rate are per-trade figures, so overlap does not bias them, and it keeps one
 * draw O(trades). Null when the span has no entry at all.
 */
export function randomEntryBenchmark(
  outcomes: readonly EntryOutcome[],
  trades: number,
  draws = RANDOM_ENTRY_DRAWS,
  seed = RANDOM_ENTRY_SEED,
): RandomEntryBenchmark | null {
  if (outcomes.length === 0) return null;
  const everyEntry = figures(outcomes.map((o) => o.pnlUsd), outcomes.map((o) => o.pnlPct));
  if (trades <= 0) {
    return { seed, draws: 0, tradesPerDraw: 0, everyEntry, matched: null, note: NO_TRADES_NOTE };
  }
  const rng = new SeededRandom(seed);
  const pf: number[] = [];
  const exp: number[] = [];
  const expPct: number[] = [];
  const win: number[] = [];
  const total: number[] = [];
  for (let d = 0; d < draws; d++) {
    let gross = 0;
    let loss = 0;
    let wins = 0;
    let pctSum = 0;
    for (let k = 0; k < trades; k++) {
      const drawn = outcomes[rng.int(outcomes.length)] as EntryOutcome;
      const p = drawn.pnlUsd;
      pctSum += drawn.pnlPct;
      if (p > 0) {
        gross += p;
        wins += 1;
      } else loss -= p;
    }
    if (loss > 0) pf.push(gross / loss);
    exp.push((gross - loss) / trades);
    expPct.push(pctSum / trades);
    win.push((wins / trades) * 100);
    total.push(gross - loss);
  }
  return {
    seed,
    draws,
    tradesPerDraw: trades,
    everyEntry,
    // A draw without a loss has no profit factor. When more than 5 % of draws have none (a few
    // trades per draw), a band over the rest would be biased low, so there is no band.
    matched: {
      profitFactor: pf.length < draws * 0.95 ? null : band(pf, 4),
      expectancyUsd: band(exp, 2),
      expectancyPct: band(expPct, 4),
      winRatePct: band(win, 2),
      totalPnlUsd: band(total, 2),
    },
    note: null,
  };
}

function figures(pnls: readonly number[], pcts: readonly number[]): RandomEntryFigures {
  const n = pnls.length;
  const gross = pnls.filter((p) => p > 0).reduce((s, p) => s + p, 0);
  const loss = -pnls.filter((p) => p <= 0).reduce((s, p) => s + p, 0);
  return {
    entries: n,
    winRatePct: roundTo((pnls.filter((p) => p > 0).length / n) * 100, 2),
    expectancyUsd: roundUsd((gross - loss) / n),
    expectancyPct: roundTo(pcts.reduce((s, p) => s + p, 0) / n, 4),
    profitFactor: loss === 0 ? null : roundTo(gross / loss, 4),
  };
}

/** Mean and the 5th/95th percentiles (nearest rank) of `xs`. */
export function band(xs: readonly number[], digits: number): Band {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] as number;
  return { mean: roundTo(s.reduce((a, b) => a + b, 0) / s.length, digits), p5: roundTo(at(0.05), digits), p95: roundTo(at(0.95), digits) };
}
