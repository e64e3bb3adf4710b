import { roundTo } from "../numbers/round-to.js";
import type { ClosedTrade } from "../ghost/trade.js";
import type { Regime } from "../market/vocabulary.js";
import type { SignalKey } from "../signals/signal-keys.js";
import { COIN_FLIP } from "./exit-baseline.js";
import { gradeTrade, type SignalGrade } from "./signal-grading.js";
import { WINDOW_TRADES, nextMultiplier } from "./weight-rules.js";

/** One stored row of SPEC "Weight item"; keyed by (signal_key, regime). */
export interface WeightRow {
  readonly signal_key: SignalKey;
  readonly regime: Regime;
  readonly multiplier: number;
  /** Share of graded calls that were right, 0..1 (4 decimals); 0 with no data points. */
  readonly accuracy: number;
  readonly data_points: number;
  readonly last_updated: string;
}

const rowKey = (k: SignalKey, r: Regime) => `${r}|${k}`;

/**
 * One 6-hour update cycle (SPEC "Signal weights", DECISIONS 7, issue 16).
 *  - Window: for each (signal, regime) the WINDOW_TRADES most recent graded calls of that signal
 *    in that regime (rows never mix regimes). The caller passes every valid live-paper trade,
 *    restarts ignored, so a row's data points never fall: once at 10 or more they stay there, and
 *    "1.0 under 10 data points" never fights "at most 20 % per update".
 *  - Skill, not geometry: each call is compared with its no-skill chance (`baselineOf(trade)`,
 *    random entries' win rate with the same exits); the multiplier's target follows the hit rate
 *    above or below that chance, not above or below 50 %.
 *  - No asset dominates: each asset's calls in the window weigh 1 / (that asset's calls), so every
 *    asset present counts equally whatever its number of trades.
 * `accuracy` is the (asset-weighted) share of calls that were right, as SPEC defines it.
 * The result does not depend on the order of `trades` or `previous`: reruns are idempotent.
 */
export function updateWeights(
  previous: readonly WeightRow[],
  trades: readonly ClosedTrade[],
  nowIso: string,
  baselineOf: (trade: ClosedTrade) => number,
): WeightRow[] {
  const prev = new Map(previous.map((r) => [rowKey(r.signal_key, r.regime), r]));
  const calls = new Map<string, SignalGrade[]>();
  for (const t of trades) {
    for (const g of gradeTrade(t, baselineOf(t))) {
      const k = rowKey(g.key, g.regime);
      calls.set(k, [...(calls.get(k) ?? []), g]);
    }
  }
  const keys = new Set([...prev.keys(), ...calls.keys()]);
  const rows: WeightRow[] = [];
  for (const k of keys) {
    const p = prev.get(k);
    const window = (calls.get(k) ?? [])
      .sort((a, b) => b.exitTime - a.exitTime || a.tradeId.localeCompare(b.tradeId))
      .slice(0, WINDOW_TRADES);
    const first = window[0];
    const signal_key = (first?.key ?? p?.signal_key) as SignalKey;
    const regime = (first?.regime ?? p?.regime) as Regime;
    const { hitRate, expected } = assetWeighted(window);
    rows.push({
      signal_key,
      regime,
      multiplier: nextMultiplier(p?.multiplier ?? 1.0, hitRate, window.length, expected),
      accuracy: roundTo(hitRate, 4),
      data_points: window.length,
      last_updated: nowIso,
    });
  }
  return rows.sort((a, b) => a.regime.localeCompare(b.regime) || a.signal_key.localeCompare(b.signal_key));
}

/** Hit rate and no-skill chance of `calls`, each asset's calls weighing 1 / (its count). */
export function assetWeighted(calls: readonly SignalGrade[]): { hitRate: number; expected: number } {
  if (calls.length === 0) return { hitRate: 0, expected: COIN_FLIP };
  const perAsset = new Map<string, number>();
  for (const c of calls) perAsset.set(c.asset, (perAsset.get(c.asset) ?? 0) + 1);
  let w = 0;
  let hit = 0;
  let expected = 0;
  for (const c of calls) {
    const wi = 1 / (perAsset.get(c.asset) ?? 1);
    w += wi;
    hit += wi * (c.correct ? 1 : 0);
    expected += wi * c.expected;
  }
  return { hitRate: hit / w, expected: expected / w };
}

/** The multiplier the Judiciary Engine applies: 1.0 for a pair never written. */
export function multiplierFor(rows: readonly WeightRow[], key: SignalKey, regime: Regime): number {
  return rows.find((r) => r.signal_key === key && r.regime === regime)?.multiplier ?? 1.0;
}

export interface WeightsView {
  readonly regime: Regime | "ALL";
  readonly weights: readonly WeightRow[];
  /** Mean accuracy of the rows shown that have data, weighted by their data points; 0 if none. */
  readonly avg_accuracy: number;
  readonly window_size: number;
  /** Newest row update; the response time before the first cycle (SPEC types it as a string). */
  readonly last_updated: string;
}

/** SPEC endpoint 10 body (without cache fields): one regime, or "ALL" spanning every regime. */
export function weightsView(rows: readonly WeightRow[], regime: Regime | "ALL", nowIso: string): WeightsView {
  const shown = regime === "ALL" ? [...rows] : rows.filter((r) => r.regime === regime);
  const points = shown.reduce((s, r) => s + r.data_points, 0);
  const right = shown.reduce((s, r) => s + r.accuracy * r.data_points, 0);
  const last = shown.reduce<string | null>((m, r) => (m === null || r.last_updated > m ? r.last_updated : m), null);
  return {
    regime,
    weights: shown,
    avg_accuracy: points === 0 ? 0 : roundTo(right / points, 4),
    window_size: WINDOW_TRADES,
    last_updated: last ?? nowIso,
  };
}
