import type { Regime } from "../market/vocabulary.js";
import type { SignalStatus } from "../signals/signal-keys.js";
import type { ContributionRule } from "./contribution-rule.js";
import type { FeatureReading, MultiplierLookup } from "./feature-reading.js";

/** One line of evidence: what a signal said, how much it moved the score, and why. */
export interface Evidence {
  readonly key: string;
  readonly value: number | null;
  readonly status: SignalStatus;
  /** Raw lean of the signal in [-1, 1], before weights. */
  readonly contribution: number;
  /** Adaptive multiplier applied for the current regime (SPEC: 0.30 to 2.00; 1.0 without data). */
  readonly multiplier: number;
  /** Share of the composite score this signal produced, in score points. */
  readonly points: number;
  readonly reason: string;
}

export interface Coverage {
  readonly live: number;
  readonly stale: number;
  readonly dead: number;
  readonly total: number;
}

export interface ScoredReadings {
  /** Composite in [-100, 100], positive bullish, rounded to 0.1. */
  readonly score: number;
  /** |Σ w·c| / Σ w·|c|: 1 when every leaning signal points the same way (or none leans). */
  readonly agreement: number;
  /** Live-equivalent share of the table's inputs (LIVE 1, STALE 0.5, DEAD 0). */
  readonly coverageRatio: number;
  readonly coverage: Coverage;
  readonly evidence: readonly Evidence[];
}

// A STALE value is still real but up to a day old: it counts, at half weight.
const STATUS_WEIGHT: Readonly<Record<SignalStatus, number>> = { LIVE: 1, STALE: 0.5, DEAD: 0 };

function clampMultiplier(m: number): number {
  // Defensive: SPEC bounds multipliers to [0.30, 2.00]; a bad row must not flip or explode a score.
  if (!Number.isFinite(m)) return 1;
  return m < 0.3 ? 0.3 : m > 2 ? 2 : m;
}

/**
 * Scores the readings against a rule table. Keys of the table that have no reading are DEAD;
 * readings whose key has no rule are ignored (they belong to another engine's picture).
 */
export function scoreReadings(
  readings: readonly FeatureReading[],
  rules: Readonly<Record<string, ContributionRule>>,
  regime: Regime | null,
  price: number | null,
  multiplier: MultiplierLookup,
): ScoredReadings {
  const byKey = new Map<string, FeatureReading>();
  for (const r of readings) if (rules[r.key] !== undefined) byKey.set(r.key, r);

  const rows: { key: string; value: number | null; status: SignalStatus; c: number; m: number; w: number; rule: ContributionRule }[] = [];
  let live = 0;
  let stale = 0;
  let dead = 0;
  let sumW = 0;
  let sumWC = 0;
  let sumWAbsC = 0;
  for (const key of Object.keys(rules)) {
    const rule = rules[key] as ContributionRule;
    const reading = byKey.get(key);
    // A value that is not a finite number is no reading at all (a ratio over a zero divisor):
    // scored, an infinite value would read as "no lean" while counting as live coverage.
    const readable = reading !== undefined && reading.value !== null && Number.isFinite(reading.value);
    const status: SignalStatus = readable ? reading.status : "DEAD";
    const value = readable ? reading.value : null;
    if (status === "LIVE") live++;
    else if (status === "STALE") stale++;
    else dead++;
    const m = clampMultiplier(multiplier(key, regime));
    const c = value === null || status === "DEAD" ? 0 : rule.contribution(value, price);
    const w = rule.weight * m * STATUS_WEIGHT[status];
    sumW += w;
    sumWC += w * c;
    sumWAbsC += w * Math.abs(c);
    rows.push({ key, value, status, c, m, w, rule });
  }

  const total = live + stale + dead;
  const score = sumW === 0 ? 0 : Math.round((1000 * sumWC) / sumW) / 10;
  const evidence: Evidence[] = rows.map((r) => ({
    key: r.key,
    value: r.value,
    status: r.status,
    contribution: Math.round(r.c * 1000) / 1000,
    multiplier: r.m,
    points: sumW === 0 ? 0 : Math.round((1000 * r.w * r.c) / sumW) / 10,
    reason: r.value === null || r.status === "DEAD" ? `${r.key}: no live data (DEAD)` : r.rule.describe(r.value, r.c) + (r.status === "STALE" ? " [STALE, half weight]" : ""),
  }));
  return {
    score: Object.is(score, -0) ? 0 : score,
    agreement: sumWAbsC === 0 ? 1 : Math.abs(sumWC) / sumWAbsC,
    coverageRatio: total === 0 ? 0 : (live + 0.5 * stale) / total,
    coverage: { live, stale, dead, total },
    evidence,
  };
}
