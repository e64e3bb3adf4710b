import type { ClosedTrade } from "./trade.js";

/** One fall of realised equity from a previous peak (`start`) to a later trough (`end`). */
export interface DrawdownEpisode {
  readonly usd: number;
  /** The fall as a % of its own peak. */
  readonly pct: number;
  readonly start: number;
  readonly end: number;
}

/**
 * Realised equity after each exit (trades sorted by exit), and its two worst falls from a previous
 * peak: the largest in USD and the largest in % of the peak. They differ once equity has grown
 * (−300 USD from 10,000 is 3 %, −320 from 12,300 only 2.6 %), and the % one is the maximum
 * drawdown Calmar divides by (freqtrade reports the relative one apart, too).
 */
export function drawdowns(sorted: readonly ClosedTrade[], equity0: number, from: number): { byUsd: DrawdownEpisode; byPct: DrawdownEpisode } {
  let equity = equity0;
  let peak = { t: from, equity: equity0 };
  const none: DrawdownEpisode = { usd: 0, pct: 0, start: from, end: from };
  let byUsd = none;
  let byPct = none;
  for (const t of sorted) {
    equity += t.pnlUsd;
    if (equity >= peak.equity) {
      peak = { t: t.exitTime, equity };
      continue;
    }
    const usd = peak.equity - equity;
    const episode = { usd, pct: (usd / peak.equity) * 100, start: peak.t, end: t.exitTime };
    if (usd > byUsd.usd) byUsd = episode;
    if (episode.pct > byPct.pct) byPct = episode;
  }
  return { byUsd, byPct };
}
