import type { Candle } from "../signals/reading.js";
import { marketBuyPrice, marketSellPrice, type CostModel } from "./costs.js";
import { roundTo } from "../numbers/round-to.js";
import { roundUsd } from "./money.js";
import { capitalExposure, type Exposure } from "./capital-exposure.js";
import { dailyRatios } from "./daily-ratios.js";
import { drawdowns, type DrawdownEpisode } from "./drawdown.js";
import { longestRun } from "./longest-run.js";
import { randomEntryBenchmark, entryOutcomes, type RandomEntryBenchmark } from "./random-entry.js";
import type { ClosedTrade, OpenPosition } from "./trade.js";

/**
 * A Ghost Trader's performance over a span (its current sprint, or a backtest span), with the
 * figures freqtrade's backtest report shows and two benchmarks over the same span (issue 16):
 * buy & hold scaled to the capital the trader kept in the market, and random entry with the same
 * exits and costs. Pure: the caller passes the trades, the span's hourly candles and the costs.
 */
export interface GroupRow {
  readonly key: string;
  readonly trades: number;
  readonly wins: number;
  readonly winRatePct: number;
  readonly pnlUsd: number;
  readonly avgPnlPct: number;
}

export interface DayPnl {
  readonly date: string;
  readonly pnlUsd: number;
}

/** A fall of realised equity (after each exit) from a previous peak. */
export interface Drawdown {
  readonly usd: number;
  /** % of the episode's own peak. */
  readonly pct: number;
  /** Peak → trough, hours (freqtrade's "drawdown duration"). */
  readonly hours: number;
  readonly start: string | null;
  readonly end: string | null;
}

export interface BuyAndHoldBenchmark {
  /** Buy at the span's first open, sell at its last close, fees and slippage on both fills, %. */
  readonly returnPct: number;
  /**
   * The trader's capital in the market over the span: Σ entry notional of the units held × time
   * held inside the span (the open position's included) / (starting equity × span), %.
   */
  readonly capitalExposurePct: number;
  /** `returnPct` × capital exposure: buy & hold holding what the trader held on average, %. */
  readonly scaledReturnPct: number;
  readonly scaledPnlUsd: number;
}

export interface TraderPerformance {
  readonly from: string;
  readonly to: string;
  readonly days: number;
  /** True when the trader closed no trade and holds none: every bar's gates said no. */
  readonly standingAside: boolean;
  readonly note: string | null;
  readonly trades: number;
  readonly wins: number;
  readonly losses: number;
  readonly winRatePct: number;
  readonly avgWinUsd: number;
  readonly avgLossUsd: number;
  /** Gross profit / gross loss; null without a losing trade. */
  readonly profitFactor: number | null;
  /** Mean P&L per trade (= win rate × avg win − loss rate × avg loss), USD and % of position cost. */
  readonly expectancyUsd: number;
  readonly expectancyPct: number;
  readonly totalPnlUsd: number;
  /** On the starting equity, %. */
  readonly returnPct: number;
  /** Compounded annual growth over the span, %; null for a span under MIN_CAGR_SPAN_DAYS (30). */
  readonly cagrPct: number | null;
  /** The largest fall in USD (its `pct` is of that episode's peak, not the largest %). */
  readonly maxDrawdown: Drawdown;
  /** The largest fall in % of its peak, with its own dates: the maximum drawdown Calmar uses. */
  readonly maxRelativeDrawdown: Drawdown;
  /** Daily returns over every day of the span (flat days count), annualised with √365; null when undefined. */
  readonly sharpe: number | null;
  readonly sortino: number | null;
  /** CAGR / max relative drawdown (both as fractions); null without a drawdown. */
  readonly calmar: number | null;
  /** Time in a position over the whole span (not first entry → last exit; the open position's included), %. */
  readonly exposurePct: number;
  readonly feesUsd: number;
  readonly bestDay: DayPnl | null;
  readonly worstDay: DayPnl | null;
  readonly maxConsecutiveLosses: number;
  readonly byEntryMode: readonly GroupRow[];
  readonly byExitReason: readonly GroupRow[];
  readonly byYear: readonly GroupRow[];
  readonly benchmarks: {
    readonly buyAndHold: BuyAndHoldBenchmark | null;
    readonly randomEntry: RandomEntryBenchmark | null;
    /** Why a benchmark is null, or null. */
    readonly note: string | null;
  };
}

export interface PerformanceInput {
  /** Closed trades entered inside the span (counted trades of the sprint, or backtest trades). */
  readonly trades: readonly ClosedTrade[];
  /** Hourly candles of the asset whose open time is in [from, to), oldest first. */
  readonly candles: readonly Candle[];
  readonly from: number;
  readonly to: number;
  readonly startingEquityUsd: number;
  readonly costs: CostModel;
  /** Positions held at `to`, counted or not (a trader holding one is not standing aside). */
  readonly openPositions: number;
  /**
   * The counted position still open at `to`, or null: its time and capital from max(entry, from)
   * to `to` count in `exposurePct` and the capital exposure (its P&L is not realised, so nothing else).
   */
  readonly openPosition: OpenPosition | null;
  readonly draws?: number;
  readonly seed?: number;
}

const DAY = 86_400_000;
const HOUR = 3_600_000;
/**
 * The shortest span CAGR (and with it Calmar) is given for. Annualising less than a month reads a
 * lucky day as millions of percent a year (+3 % in one day is 4.8 million %), the figure a fresh
 * sprint would show first; the span's own `returnPct` says what happened.
 */
export const MIN_CAGR_SPAN_DAYS = 30;
export const STANDING_ASIDE = "standing aside: no entry passed its gates";

export function traderPerformance(input: PerformanceInput): TraderPerformance {
  const { startingEquityUsd: equity0, from, to } = input;
  const trades = [...input.trades].sort((a, b) => a.exitTime - b.exitTime || a.entryTime - b.entryTime);
  const pnls = trades.map((t) => t.pnlUsd);
  const n = trades.length;
  const winP = pnls.filter((p) => p > 0);
  const lossP = pnls.filter((p) => p <= 0).map((p) => -p);
  const grossWin = winP.reduce((s, p) => s + p, 0);
  const grossLoss = lossP.reduce((s, p) => s + p, 0);
  const total = grossWin - grossLoss;
  const spanMs = Math.max(0, to - from);
  const years = spanMs / (365 * DAY);
  const finalEquity = equity0 + total;
  const cagr = spanMs >= MIN_CAGR_SPAN_DAYS * DAY && finalEquity > 0 ? (finalEquity / equity0) ** (1 / years) - 1 : null;
  const dd = drawdowns(trades, equity0, from);
  const days = dailyPnl(trades, from, to);
  const ratios = dailyRatios(days.map((d) => d.pnlUsd), equity0);
  const exposure = capitalExposure(trades, input.openPosition, from, to);
  const tradeDays = days.filter((d) => d.pnlUsd !== 0);
  const standingAside = n === 0 && input.openPositions === 0;
  return {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    days: roundTo(spanMs / DAY, 2),
    standingAside,
    note: standingAside ? STANDING_ASIDE : n === 0 ? "no closed trade yet: one position is open" : null,
    trades: n,
    wins: winP.length,
    losses: lossP.length,
    winRatePct: n === 0 ? 0 : roundTo((winP.length / n) * 100, 2),
    avgWinUsd: winP.length === 0 ? 0 : roundUsd(grossWin / winP.length),
    avgLossUsd: lossP.length === 0 ? 0 : roundUsd(grossLoss / lossP.length),
    profitFactor: grossLoss === 0 ? null : roundTo(grossWin / grossLoss, 4),
    expectancyUsd: n === 0 ? 0 : roundUsd(total / n),
    expectancyPct: n === 0 ? 0 : roundTo(trades.reduce((s, t) => s + t.pnlPct, 0) / n, 4),
    totalPnlUsd: roundUsd(total),
    returnPct: roundTo((total / equity0) * 100, 4),
    cagrPct: cagr === null ? null : roundTo(cagr * 100, 4),
    maxDrawdown: drawdownView(dd.byUsd),
    maxRelativeDrawdown: drawdownView(dd.byPct),
    ...ratios,
    calmar: cagr !== null && dd.byPct.pct > 0 ? roundTo(cagr / (dd.byPct.pct / 100), 4) : null,
    exposurePct: spanMs === 0 ? 0 : roundTo((exposure.heldMs / spanMs) * 100, 4),
    feesUsd: roundUsd(trades.reduce((s, t) => s + t.entryFeeUsd + t.fills.reduce((f, x) => f + x.feeUsd, 0), 0)),
    bestDay: tradeDays.length === 0 ? null : tradeDays.reduce((b, d) => (d.pnlUsd > b.pnlUsd ? d : b)),
    worstDay: tradeDays.length === 0 ? null : tradeDays.reduce((w, d) => (d.pnlUsd < w.pnlUsd ? d : w)),
    maxConsecutiveLosses: longestRun(pnls.map((p) => p <= 0)),
    byEntryMode: groupBy(trades, (t) => t.mode),
    byExitReason: groupBy(trades, (t) => t.exitReason),
    byYear: groupBy(trades, (t) => String(new Date(t.entryTime).getUTCFullYear())),
    benchmarks: benchmarks(input, trades, exposure, spanMs),
  };
}

function benchmarks(input: PerformanceInput, trades: readonly ClosedTrade[], held: Exposure, spanMs: number): TraderPerformance["benchmarks"] {
  const { candles, costs, startingEquityUsd: equity0 } = input;
  const first = candles[0];
  const last = candles[candles.length - 1];
  if (first === undefined || last === undefined || spanMs === 0) {
    return { buyAndHold: null, randomEntry: null, note: "no hourly candles in the span yet: nothing to compare with" };
  }
  // Bars that start after the span does (a live feed keeps a bounded window of bars), or stop
  // before it ends (an asset's history ends, its exchange goes quiet), leave the benchmarks a
  // shorter span: buy & hold is then scaled by the trader's capital over that same shorter span,
  // and the note says which span it is, never a mix of the two. A last bar up to 2 h old is
  // current (DECISIONS 4's LIVE rule), not a gap.
  const lateStart = first.t > input.from + HOUR;
  const earlyEnd = input.to - (last.t + HOUR) > 2 * HOUR;
  const partial = lateStart || earlyEnd;
  const coverFrom = lateStart ? first.t : input.from;
  const coverTo = earlyEnd ? last.t + HOUR : input.to;
  const coveredMs = coverTo - coverFrom;
  const heldCovered = partial ? capitalExposure(trades, input.openPosition, coverFrom, coverTo) : held;
  const bhReturn = marketSellPrice(last.c, costs) * (1 - costs.feeRate) / (marketBuyPrice(first.o, costs) * (1 + costs.feeRate)) - 1;
  const exposure = coveredMs > 0 ? heldCovered.notionalMs / (equity0 * (partial ? coveredMs : spanMs)) : 0;
  const outcomes = entryOutcomes(candles, costs, equity0);
  const randomEntry = randomEntryBenchmark(outcomes, trades.length, input.draws, input.seed);
  const notes = [
    ...(partial
      ? [
          `benchmarks cover ${new Date(coverFrom).toISOString()} to ${new Date(coverTo).toISOString()} only: no hourly bars ${
            lateStart && earlyEnd ? "outside it" : lateStart ? "before it" : "after it"
          } are available`,
        ]
      : []),
    ...(randomEntry === null ? ["random entry: no entry in the span"] : []),
  ];
  return {
    buyAndHold: {
      returnPct: roundTo(bhReturn * 100, 4),
      capitalExposurePct: roundTo(exposure * 100, 4),
      scaledReturnPct: roundTo(bhReturn * exposure * 100, 4),
      scaledPnlUsd: roundUsd(bhReturn * exposure * equity0),
    },
    randomEntry,
    note: notes.length === 0 ? null : notes.join("; "),
  };
}

function drawdownView(dd: DrawdownEpisode): Drawdown {
  return {
    usd: roundUsd(dd.usd),
    pct: roundTo(dd.pct, 4),
    hours: roundTo((dd.end - dd.start) / HOUR, 2),
    start: dd.usd > 0 ? new Date(dd.start).toISOString() : null,
    end: dd.usd > 0 ? new Date(dd.end).toISOString() : null,
  };
}

/**
 * P&L booked per UTC day (by exit time) over every day of [from, to), flat days included, and on
 * to the day of the last exit: a trade counts in the span it was entered in, so one entered late in
 * a span may exit after it ends (or exactly at a midnight end), and its P&L must reach the daily
 * returns as it reaches every other figure.
 */
function dailyPnl(trades: readonly ClosedTrade[], from: number, to: number): DayPnl[] {
  const day0 = Math.floor(from / DAY);
  const lastExitDay = trades.reduce((d, t) => Math.max(d, Math.floor(t.exitTime / DAY)), -Infinity);
  const count = Math.max(0, Math.ceil(to / DAY) - day0, lastExitDay + 1 - day0);
  const pnl = new Array<number>(count).fill(0);
  for (const t of trades) {
    const i = Math.floor(t.exitTime / DAY) - day0;
    if (i >= 0 && i < count) pnl[i] = (pnl[i] ?? 0) + t.pnlUsd;
  }
  return pnl.map((p, i) => ({ date: new Date((day0 + i) * DAY).toISOString().slice(0, 10), pnlUsd: roundUsd(p) }));
}

function groupBy(trades: readonly ClosedTrade[], key: (t: ClosedTrade) => string): GroupRow[] {
  const groups = new Map<string, ClosedTrade[]>();
  for (const t of trades) groups.set(key(t), [...(groups.get(key(t)) ?? []), t]);
  return [...groups.entries()]
    .map(([k, g]) => {
      const wins = g.filter((t) => t.pnlUsd > 0).length;
      return {
        key: k,
        trades: g.length,
        wins,
        winRatePct: roundTo((wins / g.length) * 100, 2),
        pnlUsd: roundUsd(g.reduce((s, t) => s + t.pnlUsd, 0)),
        avgPnlPct: roundTo(g.reduce((s, t) => s + t.pnlPct, 0) / g.length, 4),
      };
    })
    .sort((a, b) => a.key.localeCompare(b.key));
}
