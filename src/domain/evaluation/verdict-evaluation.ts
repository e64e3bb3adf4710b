import type { TaoRuling } from "../market/vocabulary.js";
import { TAO_RULINGS } from "../market/vocabulary.js";
import { rulingSide } from "../calibration/calibration-map.js";
import { SeededRandom } from "../regime/prng.js";
import { mean, quantileSorted, spearman } from "./statistics.js";

const HOUR = 3_600_000;

/** The horizons every ruling is judged at, hours. */
export const EVALUATION_HORIZONS = [4, 24, 72] as const;
export type EvaluationHorizon = (typeof EVALUATION_HORIZONS)[number];

/** One published hourly ruling with what followed it (null where the horizon had not ended). */
export interface EvaluatedHour {
  readonly at: number;
  readonly ruling: TaoRuling;
  readonly score: number;
  readonly confidence: number;
  /** The base rate of up-moves the calibration knew at the time (walk-forward reference forecast). */
  readonly baseRate: number;
  readonly forward: Readonly<Record<EvaluationHorizon, number | null>>;
}

export interface EvaluationOptions {
  /** Horizon of `confidence`, hours (the stream's stated horizon). */
  readonly confidenceHorizon: EvaluationHorizon;
  readonly bootstrapDraws: number;
  /** Block length of the moving-block bootstrap, hours: long enough to keep a week's dependence. */
  readonly blockHours: number;
  readonly seed: number;
}

export const DEFAULT_EVALUATION: EvaluationOptions = { confidenceHorizon: 24, bootstrapDraws: 200, blockHours: 168, seed: 7 };

export interface HorizonOutcome {
  readonly hours: number;
  readonly graded: number;
  /** Mean forward return after this ruling, %. */
  readonly meanPct: number | null;
  /** Mean minus the unconditional mean of the same span, percentage points. */
  readonly excessPct: number | null;
  /** Block-bootstrap 90% interval of the excess. */
  readonly excessCi90: readonly [number, number] | null;
}

export interface RulingRow {
  readonly ruling: TaoRuling;
  readonly count: number;
  readonly share: number;
  readonly horizons: readonly HorizonOutcome[];
}

export interface RankIc {
  readonly hours: number;
  /** Spearman correlation of score with the forward return on non-overlapping samples. */
  readonly ic: number | null;
  readonly t: number | null;
  readonly samples: number;
}

export interface ReliabilityBin {
  readonly from: number;
  readonly to: number;
  readonly count: number;
  readonly meanConfidence: number | null;
  readonly hitRate: number | null;
}

export interface Reliability {
  readonly horizonHours: number;
  /** Directional calls (bullish or bearish) with a graded outcome. */
  readonly calls: number;
  readonly hitRate: number | null;
  readonly bins: readonly ReliabilityBin[];
  /**
   * Confidence quintiles (fifths by rank, equal confidences always in one; see quintileBounds):
   * the mean |mean confidence − hit rate|.
   */
  readonly quintiles: readonly ReliabilityBin[];
  readonly quintileMeanAbsGap: number | null;
  readonly brier: number | null;
  /** Brier of always forecasting the base rate known at the time (walk-forward). */
  readonly brierBaseRate: number | null;
  /** Brier of always forecasting the span's own up-share, known only in hindsight. */
  readonly brierHindsightBaseRate: number | null;
  /**
   * The quintile gap a perfectly calibrated forecaster would show on these very calls: outcomes
   * drawn as hits with probability = the published confidence, from one price move per UTC day
   * shared by that day's calls (their 24 h horizons overlap, so a day's calls are one outcome, not
   * 24; its bullish calls hit when the move is up, its bearish ones when it is down).
   * A measured gap inside this band is what calibration looks like on a span this short.
   */
  readonly quintileGapIfCalibrated: { readonly median: number; readonly p95: number } | null;
}

export interface SpanEvaluation {
  readonly span: string;
  readonly from: number | null;
  readonly to: number | null;
  readonly hours: number;
  readonly unconditional: readonly { readonly hours: number; readonly meanPct: number | null; readonly upShare: number | null }[];
  readonly rulings: readonly RulingRow[];
  readonly rankIc: readonly RankIc[];
  readonly rankIcByYear: readonly { readonly year: number; readonly horizons: readonly RankIc[] }[];
  readonly reliability: Reliability;
}

const round = (x: number | null, d = 4): number | null => (x === null || !Number.isFinite(x) ? null : Math.round(x * 10 ** d) / 10 ** d);

function rankIcAt(rows: readonly EvaluatedHour[], hours: EvaluationHorizon): RankIc {
  // Non-overlapping samples: one every `hours`, so no outcome is counted twice.
  const xs: number[] = [];
  const ys: number[] = [];
  let next = Number.NEGATIVE_INFINITY;
  for (const r of rows) {
    const f = r.forward[hours];
    if (f === null || r.at < next) continue;
    xs.push(r.score);
    ys.push(f);
    next = r.at + hours * HOUR;
  }
  const s = spearman(xs, ys);
  return { hours, ic: round(s.rho), t: round(s.t, 2), samples: s.n };
}

function binOf(rows: readonly { c: number; hit: boolean }[], from: number, to: number): ReliabilityBin {
  const hits = rows.filter((r) => r.hit).length;
  return {
    from,
    to,
    count: rows.length,
    meanConfidence: round(mean(rows.map((r) => r.c))),
    hitRate: rows.length === 0 ? null : round(hits / rows.length),
  };
}

const BIN_EDGES = [0, 0.45, 0.5, 0.55, 0.6, 0.65, 1.0000001];

function reliability(rows: readonly EvaluatedHour[], horizon: EvaluationHorizon): Reliability {
  const graded = rows.filter((r) => r.forward[horizon] !== null && r.forward[horizon] !== 0);
  const upShare = graded.length === 0 ? null : graded.filter((r) => (r.forward[horizon] as number) > 0).length / graded.length;
  const calls: { at: number; c: number; bullish: boolean; hit: boolean; base: number; hindsight: number }[] = [];
  for (const r of graded) {
    const side = rulingSide(r.ruling);
    if (side === "none") continue;
    const up = (r.forward[horizon] as number) > 0;
    calls.push({
      at: r.at,
      c: r.confidence,
      bullish: side === "up",
      hit: side === "up" ? up : !up,
      base: side === "up" ? r.baseRate : 1 - r.baseRate,
      hindsight: upShare === null ? 0.5 : side === "up" ? upShare : 1 - upShare,
    });
  }
  const bins: ReliabilityBin[] = [];
  for (let i = 0; i + 1 < BIN_EDGES.length; i++) {
    const lo = BIN_EDGES[i] as number;
    const hi = BIN_EDGES[i + 1] as number;
    bins.push(binOf(calls.filter((x) => x.c >= lo && x.c < hi), lo, Math.min(1, hi)));
  }
  const sorted = [...calls].sort((a, b) => a.c - b.c);
  const bounds = sorted.length >= 5 ? quintileBounds(sorted.map((x) => x.c)) : [];
  const quintiles: ReliabilityBin[] = [];
  for (let q = 0; q + 1 < bounds.length; q++) {
    const part = sorted.slice(bounds[q], bounds[q + 1]);
    if (part.length > 0) quintiles.push(binOf(part, (part[0] as { c: number }).c, (part[part.length - 1] as { c: number }).c));
  }
  const gaps = quintiles.filter((b) => b.meanConfidence !== null && b.hitRate !== null).map((b) => Math.abs((b.meanConfidence as number) - (b.hitRate as number)));
  const brier = (f: (x: (typeof calls)[number]) => number) => round(mean(calls.map((x) => (f(x) - (x.hit ? 1 : 0)) ** 2)), 5);
  const ifCalibrated = calibratedGapBand(sorted, bounds);
  return {
    horizonHours: horizon,
    calls: calls.length,
    hitRate: calls.length === 0 ? null : round(calls.filter((x) => x.hit).length / calls.length),
    bins,
    quintiles,
    quintileMeanAbsGap: round(mean(gaps)),
    brier: brier((x) => x.c),
    brierBaseRate: brier((x) => x.base),
    brierHindsightBaseRate: brier((x) => x.hindsight),
    quintileGapIfCalibrated: ifCalibrated,
  };
}

/**
 * The borders of the confidence quintiles over confidences sorted ascending, as indices
 * (`[0, …, n]`, up to six, empty quintiles dropped): each call goes to the quintile of its
 * tie group's mid-rank, so equal confidences always share a quintile. A day's map gives every call
 * on one side the same figure; cut at equal counts, such a group was split across two quintiles
 * by time order (a review found 53 ETH calls at 0.5019 split 29/24), which no reading of
 * "confidence quintiles" allows.
 */
export function quintileBounds(sortedConfidences: readonly number[]): number[] {
  const n = sortedConfidences.length;
  // The quintile of rank i when every call is distinct: equal-count fifths.
  const quintileOfRank = (i: number): number => {
    let q = 4;
    while (q > 0 && Math.floor((q * n) / 5) > i) q--;
    return q;
  };
  const bounds = [0];
  let current = 0;
  let start = 0;
  while (start < n) {
    let end = start + 1;
    while (end < n && sortedConfidences[end] === sortedConfidences[start]) end++;
    const quintile = quintileOfRank(Math.floor((start + end - 1) / 2));
    if (quintile > current) {
      if (start > 0) bounds.push(start);
      current = quintile;
    }
    start = end;
  }
  bounds.push(n);
  return bounds;
}

/**
 * Draws of the calibrated-forecaster null (fixed seed: the band is a pure function of the calls).
 * 4,000: with 400 the 95th percentile moved by ±0.003 between seeds (a review's 50 batches of 400
 * ranged 0.0607–0.0672 for TAO), as much as the gaps it is read against.
 */
const NULL_DRAWS = 4_000;
const DAY = 24 * HOUR;

/** How many of `sorted` (ascending) are ≤ x. */
function countAtMost(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The calls of one quintile on one UTC day: they all meet that day's one move. */
interface DayGroup {
  readonly quintile: number;
  readonly day: number;
  /** Bullish calls' confidences, ascending: each hits when the move u < c. */
  readonly bullish: Float64Array;
  /** Bearish calls' 1 − c, ascending: each hits when the move u ≥ 1 − c. */
  readonly bearish: Float64Array;
}

/**
 * Median and 95th percentile of the quintile gap when each day's outcome is drawn from the
 * published confidences (see `Reliability.quintileGapIfCalibrated`). `sorted` is ordered by
 * confidence, so the quintiles are the same slices in every draw; only the hits change.
 *
 * A day's draw u is its price move: a bullish call at confidence c says P(up) = c and hits when
 * u < c; a bearish one says P(up) = 1 − c and hits when the move is down, u ≥ 1 − c. So each call
 * hits with probability c, and a bullish and a bearish call of one day hit or miss against each
 * other as they do in the market (graded as one coin, both would hit or miss together and the
 * band would be too wide).
 *
 * A draw counts hits per (quintile, day) group by two binary searches over the group's sorted
 * thresholds rather than call by call: about a tenth of the work for hourly calls, so 4,000
 * draws do not hold the event loop of the process that evaluates (a review of a CI run met an
 * HTTP keep-alive race in a test whose service was evaluating).
 */
function calibratedGapBand(sorted: readonly { c: number; at: number; bullish: boolean }[], bounds: readonly number[]): { median: number; p95: number } | null {
  const parts = bounds.length - 1;
  if (parts < 1) return null;
  const rng = new SeededRandom(16);
  // Days are numbered in order of first appearance, and their moves drawn in that order.
  const days = new Map<number, number>();
  const dayOf = sorted.map((x) => {
    const d = Math.floor(x.at / DAY);
    if (!days.has(d)) days.set(d, days.size);
    return days.get(d) as number;
  });
  const collected = new Map<number, { quintile: number; day: number; bullish: number[]; bearish: number[] }>();
  for (let q = 0; q < parts; q++) {
    for (let i = bounds[q] as number; i < (bounds[q + 1] as number); i++) {
      const call = sorted[i] as { c: number; bullish: boolean };
      const day = dayOf[i] as number;
      const key = q * days.size + day;
      let group = collected.get(key);
      if (group === undefined) collected.set(key, (group = { quintile: q, day, bullish: [], bearish: [] }));
      if (call.bullish) group.bullish.push(call.c);
      else group.bearish.push(1 - call.c);
    }
  }
  const ascending = (xs: number[]) => Float64Array.from(xs).sort();
  const groups: DayGroup[] = [...collected.values()].map((g) => ({ quintile: g.quintile, day: g.day, bullish: ascending(g.bullish), bearish: ascending(g.bearish) }));
  const sizes = bounds.slice(0, -1).map((lo, q) => (bounds[q + 1] as number) - lo);
  const meanC = bounds.slice(0, -1).map((lo, q) => mean(sorted.slice(lo, bounds[q + 1]).map((x) => x.c)) ?? 0);
  const u = new Float64Array(days.size);
  const hits = new Float64Array(parts);
  const draws: number[] = [];
  for (let k = 0; k < NULL_DRAWS; k++) {
    for (let d = 0; d < u.length; d++) u[d] = rng.next();
    hits.fill(0);
    for (const g of groups) {
      const move = u[g.day] as number;
      hits[g.quintile] = (hits[g.quintile] as number) + g.bullish.length - countAtMost(g.bullish, move) + countAtMost(g.bearish, move);
    }
    let gap = 0;
    for (let q = 0; q < parts; q++) gap += Math.abs((meanC[q] as number) - (hits[q] as number) / (sizes[q] as number));
    draws.push(gap / parts);
  }
  draws.sort((a, b) => a - b);
  return { median: round(quantileSorted(draws, 0.5)) ?? 0, p95: round(quantileSorted(draws, 0.95)) ?? 0 };
}

/**
 * Moving-block bootstrap of each ruling's excess mean forward return: blocks of `blockHours`
 * consecutive rows keep the dependence of overlapping horizons and volatility clusters.
 */
function bootstrapExcess(rows: readonly EvaluatedHour[], horizon: EvaluationHorizon, options: EvaluationOptions): Map<TaoRuling, readonly [number, number]> {
  const out = new Map<TaoRuling, readonly [number, number]>();
  const n = rows.length;
  const L = Math.max(1, Math.min(n, options.blockHours));
  if (n < 2 * L) return out;
  const rng = new SeededRandom(options.seed + horizon);
  const rulingIndex = new Map(TAO_RULINGS.map((r, i) => [r, i]));
  const code = Int32Array.from(rows, (r) => rulingIndex.get(r.ruling) as number);
  const fwd = Float64Array.from(rows, (r) => r.forward[horizon] ?? Number.NaN);
  const draws: number[][] = TAO_RULINGS.map(() => []);
  const blocks = Math.ceil(n / L);
  for (let b = 0; b < options.bootstrapDraws; b++) {
    const sum = new Float64Array(TAO_RULINGS.length);
    const cnt = new Float64Array(TAO_RULINGS.length);
    let all = 0;
    let allN = 0;
    for (let k = 0; k < blocks; k++) {
      const start = rng.int(n - L + 1);
      for (let i = start; i < start + L; i++) {
        const f = fwd[i] as number;
        if (Number.isNaN(f)) continue;
        const c = code[i] as number;
        sum[c] = (sum[c] as number) + f;
        cnt[c] = (cnt[c] as number) + 1;
        all += f;
        allN++;
      }
    }
    if (allN === 0) continue;
    for (let c = 0; c < TAO_RULINGS.length; c++) if ((cnt[c] as number) > 0) (draws[c] as number[]).push(((sum[c] as number) / (cnt[c] as number) - all / allN) * 100);
  }
  TAO_RULINGS.forEach((r, c) => {
    const d = (draws[c] as number[]).sort((a, b) => a - b);
    // An interval only when the ruling appeared in nearly every resample.
    if (d.length < options.bootstrapDraws * 0.9) return;
    out.set(r, [round(quantileSorted(d, 0.05), 4) as number, round(quantileSorted(d, 0.95), 4) as number]);
  });
  return out;
}

/** The evaluation of one span of a ruling stream (rows in time order, hourly). */
export function evaluateSpan(span: string, rows: readonly EvaluatedHour[], options: EvaluationOptions = DEFAULT_EVALUATION): SpanEvaluation {
  const unconditional = EVALUATION_HORIZONS.map((h) => {
    const fs = rows.map((r) => r.forward[h]).filter((f): f is number => f !== null);
    const m = mean(fs);
    return { hours: h, meanPct: round(m === null ? null : m * 100), upShare: fs.length === 0 ? null : round(fs.filter((f) => f > 0).length / fs.length) };
  });
  const cis = new Map(EVALUATION_HORIZONS.map((h) => [h, bootstrapExcess(rows, h, options)]));
  const rulings: RulingRow[] = [];
  for (const ruling of TAO_RULINGS) {
    const mine = rows.filter((r) => r.ruling === ruling);
    if (mine.length === 0) continue;
    rulings.push({
      ruling,
      count: mine.length,
      share: round(mine.length / rows.length) as number,
      horizons: EVALUATION_HORIZONS.map((h, i) => {
        const fs = mine.map((r) => r.forward[h]).filter((f): f is number => f !== null);
        const m = mean(fs);
        const u = unconditional[i]?.meanPct ?? null;
        return {
          hours: h,
          graded: fs.length,
          meanPct: round(m === null ? null : m * 100),
          excessPct: m === null || u === null ? null : round(m * 100 - u),
          excessCi90: cis.get(h)?.get(ruling) ?? null,
        };
      }),
    });
  }
  const years = [...new Set(rows.map((r) => new Date(r.at).getUTCFullYear()))].sort((a, b) => a - b);
  return {
    span,
    from: rows[0]?.at ?? null,
    to: rows[rows.length - 1]?.at ?? null,
    hours: rows.length,
    unconditional,
    rulings,
    rankIc: EVALUATION_HORIZONS.map((h) => rankIcAt(rows, h)),
    rankIcByYear: years.map((year) => ({
      year,
      horizons: EVALUATION_HORIZONS.map((h) => rankIcAt(rows.filter((r) => new Date(r.at).getUTCFullYear() === year), h)),
    })),
    reliability: reliability(rows, options.confidenceHorizon),
  };
}

/** DECISIONS 7: rules are chosen on data up to 2022-12-31; 2023-01-01 onward is held out. */
export const HELD_OUT_FROM = Date.UTC(2023, 0, 1);

/** The two spans of the evaluation protocol, reported apart (a span without rows is left out). */
export function evaluateStream(rows: readonly EvaluatedHour[], options: EvaluationOptions = DEFAULT_EVALUATION): SpanEvaluation[] {
  const before = rows.filter((r) => r.at < HELD_OUT_FROM);
  const after = rows.filter((r) => r.at >= HELD_OUT_FROM);
  const out: SpanEvaluation[] = [];
  if (before.length > 0) out.push(evaluateSpan("to_2022", before, options));
  if (after.length > 0) out.push(evaluateSpan("from_2023", after, options));
  return out;
}
