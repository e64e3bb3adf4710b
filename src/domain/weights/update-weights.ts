import { roundTo } from "../ghost/money.js";
import type { ClosedTrade } from "../ghost/trade.js";
import { REGIMES, type Regime } from "../market/vocabulary.js";
import type { SignalKey } from "../signals/signal-keys.js";
import { gradeTrade } from "./signal-grading.js";
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
 * One 6-hour update cycle. For each regime separately (rows never mix regimes) the most recent
 * WINDOW_TRADES counted closed trades entered in that regime are graded; every (signal, regime)
 * with a previous row or a graded call gets a new row. A previous row whose signal made no call in
 * the window falls to 0 data points and so back to 1.0: stale evidence decays to neutral.
 * The caller passes only counted trades (valid, since the cutoff); the result does not depend on
 * the order of `trades` or `previous`, so reruns of a cycle are idempotent.
 */
export function updateWeights(previous: readonly WeightRow[], trades: readonly ClosedTrade[], nowIso: string): WeightRow[] {
  const prev = new Map(previous.map((r) => [rowKey(r.signal_key, r.regime), r]));
  const tally = new Map<string, { key: SignalKey; regime: Regime; right: number; total: number }>();
  for (const regime of REGIMES) {
    const window = trades
      .filter((t) => t.regimeAtEntry === regime)
      .sort((a, b) => b.exitTime - a.exitTime || a.id.localeCompare(b.id))
      .slice(0, WINDOW_TRADES);
    for (const g of window.flatMap(gradeTrade)) {
      const k = rowKey(g.key, regime);
      const t = tally.get(k) ?? { key: g.key, regime, right: 0, total: 0 };
      tally.set(k, { ...t, right: t.right + (g.correct ? 1 : 0), total: t.total + 1 });
    }
  }
  const keys = new Set([...prev.keys(), ...tally.keys()]);
  const rows: WeightRow[] = [];
  for (const k of keys) {
    const p = prev.get(k);
    const t = tally.get(k);
    const signal_key = (t?.key ?? p?.signal_key) as SignalKey;
    const regime = (t?.regime ?? p?.regime) as Regime;
    const dataPoints = t?.total ?? 0;
    const accuracy = dataPoints === 0 ? 0 : (t?.right ?? 0) / dataPoints;
    rows.push({
      signal_key,
      regime,
      multiplier: nextMultiplier(p?.multiplier ?? 1.0, accuracy, dataPoints),
      accuracy: roundTo(accuracy, 4),
      data_points: dataPoints,
      last_updated: nowIso,
    });
  }
  return rows.sort((a, b) => a.regime.localeCompare(b.regime) || a.signal_key.localeCompare(b.signal_key));
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
