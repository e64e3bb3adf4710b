import type { TaoRuling } from "../market/vocabulary.js";
import { roundOrNull } from "../numbers/round-to.js";
import { TAO_RULINGS } from "../market/vocabulary.js";
import { rulingSide } from "../calibration/calibration-map.js";
import { SeededRandom } from "../regime/prng.js";
import { appendTo, mean, quantileSorted, spearmanSteps } from "./statistics.js";
import { runSteps, type Steps } from "./steps.js";
import { calibratedGapBand } from "./calibrated-gap-band.js";

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
  readonly forward: ForwardReturns;
}

/**
 * A row's forward returns, one per horizon. Named keys, not the bare hours: integer keys up to
 * 72 make V8 give every such object a 73-slot elements store, about 1.1 KB a row. The evidence
 * actors hold ~116,000 rows for the process's life; keyed by the hours they took 127 MB, and
 * each full collection of the heap spent its marking on them while requests waited.
 */
export interface ForwardReturns {
  readonly h4: number | null;
  readonly h24: number | null;
  readonly h72: number | null;
}

/** The row's forward return at `h` (null: the horizon had not ended when it was graded). */
export function forwardAt(row: EvaluatedHour, h: EvaluationHorizon): number | null {
  switch (h) {
    case 4:
      return row.forward.h4;
    case 24:
      return row.forward.h24;
    case 72:
      return row.forward.h72;
  }
}

export interface EvaluationOptions {
  /** Horizon of `confidence`, hours (the stream's stated horizon). */
  readonly confidenceHorizon: EvaluationHorizon;
  /**
   * Resamples behind each 90 % interval. 1,000, not 200: with 200 the Monte Carlo error of an
   * interval end was up to 14 % of the interval's width and whether an interval excluded zero
   * changed with the seed for 2 of BTC's 30 (eight seeds compared); with 1,000 it is at most
   * 7 % and none changed (docs/decisions.md, "Bootstrap draws").
   */
  readonly bootstrapDraws: number;
  /** Block length of the moving-block bootstrap, hours: long enough to keep a week's dependence. */
  readonly blockHours: number;
  readonly seed: number;
}

export const DEFAULT_EVALUATION: EvaluationOptions = { confidenceHorizon: 24, bootstrapDraws: 1_000, blockHours: 168, seed: 7 };

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
   * The quintile gap a perfectly calibrated forecaster would show on these very calls: each call
   * hits with probability = its published confidence, graded against a simulated hourly price
   * walk over its own horizon, so calls whose horizons overlap hit or miss together as far as
   * they overlap (hourly calls with a 24 h horizon are far fewer than 24 independent outcomes a
   * day), and a bullish and a bearish call over the same hours hit against each other.
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

function* rankIcAt(rows: readonly EvaluatedHour[], hours: EvaluationHorizon): Steps<RankIc> {
  // Non-overlapping samples: one every `hours`, so no outcome is counted twice.
  const xs: number[] = [];
  const ys: number[] = [];
  let next = Number.NEGATIVE_INFINITY;
  for (const r of rows) {
    const f = forwardAt(r, hours);
    if (f === null || r.at < next) continue;
    xs.push(r.score);
    ys.push(f);
    next = r.at + hours * HOUR;
  }
  yield;
  const s = yield* spearmanSteps(xs, ys);
  return { hours, ic: roundOrNull(s.rho), t: roundOrNull(s.t, 2), samples: s.n };
}

function binOf(rows: readonly { c: number; hit: boolean }[], from: number, to: number): ReliabilityBin {
  const hits = rows.filter((r) => r.hit).length;
  return {
    from,
    to,
    count: rows.length,
    meanConfidence: roundOrNull(mean(rows.map((r) => r.c))),
    hitRate: rows.length === 0 ? null : roundOrNull(hits / rows.length),
  };
}

const BIN_EDGES = [0, 0.45, 0.5, 0.55, 0.6, 0.65, 1.0000001];
/** Calls built per step of the reliability table (a few milliseconds with the collector's share). */
const CALLS_PER_STEP = 5_000;

function* reliability(rows: readonly EvaluatedHour[], horizon: EvaluationHorizon): Steps<Reliability> {
  const graded = rows.filter((r) => forwardAt(r, horizon) !== null && forwardAt(r, horizon) !== 0);
  const upShare = graded.length === 0 ? null : graded.filter((r) => (forwardAt(r, horizon) as number) > 0).length / graded.length;
  yield;
  const calls: { at: number; c: number; bullish: boolean; hit: boolean; base: number; hindsight: number }[] = [];
  for (const [i, r] of graded.entries()) {
    if (i % CALLS_PER_STEP === CALLS_PER_STEP - 1) yield;
    const side = rulingSide(r.ruling);
    if (side === "none") continue;
    const up = (forwardAt(r, horizon) as number) > 0;
    calls.push({
      at: r.at,
      c: r.confidence,
      bullish: side === "up",
      hit: side === "up" ? up : !up,
      base: side === "up" ? r.baseRate : 1 - r.baseRate,
      hindsight: upShare === null ? 0.5 : side === "up" ? upShare : 1 - upShare,
    });
  }
  yield;
  const bins: ReliabilityBin[] = [];
  for (let i = 0; i + 1 < BIN_EDGES.length; i++) {
    const lo = BIN_EDGES[i] as number;
    const hi = BIN_EDGES[i + 1] as number;
    bins.push(binOf(calls.filter((x) => x.c >= lo && x.c < hi), lo, Math.min(1, hi)));
  }
  yield;
  const sorted = [...calls].sort((a, b) => a.c - b.c);
  yield;
  const bounds = sorted.length >= 5 ? quintileBounds(sorted.map((x) => x.c)) : [];
  yield;
  const quintiles: ReliabilityBin[] = [];
  for (let q = 0; q + 1 < bounds.length; q++) {
    const part = sorted.slice(bounds[q], bounds[q + 1]);
    if (part.length > 0) quintiles.push(binOf(part, (part[0] as { c: number }).c, (part[part.length - 1] as { c: number }).c));
  }
  const gaps = quintiles.filter((b) => b.meanConfidence !== null && b.hitRate !== null).map((b) => Math.abs((b.meanConfidence as number) - (b.hitRate as number)));
  const brier = (f: (x: (typeof calls)[number]) => number) => roundOrNull(mean(calls.map((x) => (f(x) - (x.hit ? 1 : 0)) ** 2)), 5);
  yield;
  const forecast = brier((x) => x.c);
  yield;
  const baseRate = brier((x) => x.base);
  yield;
  const scores = { brier: forecast, brierBaseRate: baseRate, brierHindsightBaseRate: brier((x) => x.hindsight) };
  yield;
  const ifCalibrated = yield* calibratedGapBand(sorted, bounds, horizon);
  return {
    horizonHours: horizon,
    calls: calls.length,
    hitRate: calls.length === 0 ? null : roundOrNull(calls.filter((x) => x.hit).length / calls.length),
    bins,
    quintiles,
    quintileMeanAbsGap: roundOrNull(mean(gaps)),
    ...scores,
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
 * Moving-block bootstrap of each ruling's excess mean forward return: blocks of `blockHours`
 * consecutive rows keep the dependence of overlapping horizons and volatility clusters.
 */
function* bootstrapExcess(rows: readonly EvaluatedHour[], horizon: EvaluationHorizon, options: EvaluationOptions): Steps<Map<TaoRuling, readonly [number, number]>> {
  const out = new Map<TaoRuling, readonly [number, number]>();
  const n = rows.length;
  const L = Math.max(1, Math.min(n, options.blockHours));
  if (n < 2 * L) return out;
  // The previous horizon's intervals (sorting its draws) end the step before this one's set-up.
  yield;
  const rng = new SeededRandom(options.seed + horizon);
  const rulingIndex = new Map(TAO_RULINGS.map((r, i) => [r, i]));
  // Plain loops: TypedArray.from with a mapping function goes through the iterator protocol,
  // 5–13 ms for a held-out span in one step.
  const code = new Int32Array(n);
  const fwd = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = rows[i] as EvaluatedHour;
    code[i] = rulingIndex.get(r.ruling) as number;
    fwd[i] = forwardAt(r, horizon) ?? Number.NaN;
  }
  const draws: number[][] = TAO_RULINGS.map(() => []);
  const blocks = Math.ceil(n / L);
  yield;
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
    yield;
    if (allN === 0) continue;
    for (let c = 0; c < TAO_RULINGS.length; c++) if ((cnt[c] as number) > 0) (draws[c] as number[]).push(((sum[c] as number) / (cnt[c] as number) - all / allN) * 100);
  }
  TAO_RULINGS.forEach((r, c) => {
    const d = (draws[c] as number[]).sort((a, b) => a - b);
    // An interval only when the ruling appeared in nearly every resample.
    if (d.length < options.bootstrapDraws * 0.9) return;
    out.set(r, [roundOrNull(quantileSorted(d, 0.05), 4) as number, roundOrNull(quantileSorted(d, 0.95), 4) as number]);
  });
  return out;
}

/**
 * Count, mean and up-moves of the graded forward returns at `h`, summed in row order (the same
 * figures as `mean` over the list), without building the list: a span's evaluation runs in the
 * service's process, where every array of tens of thousands of rows is garbage-collector work.
 */
function forwardSummary(rows: readonly EvaluatedHour[], h: EvaluationHorizon): { graded: number; mean: number | null; up: number; moved: number } {
  let graded = 0;
  let sum = 0;
  let up = 0;
  let moved = 0;
  for (const r of rows) {
    const f = forwardAt(r, h);
    if (f === null) continue;
    graded++;
    sum += f;
    if (f > 0) up++;
    if (f !== 0) moved++;
  }
  return { graded, mean: graded === 0 ? null : sum / graded, up, moved };
}

/** The evaluation of one span of a ruling stream (rows in time order, hourly). */
export function evaluateSpan(span: string, rows: readonly EvaluatedHour[], options: EvaluationOptions = DEFAULT_EVALUATION): SpanEvaluation {
  return runSteps(evaluateSpanSteps(span, rows, options));
}

/**
 * `evaluateSpan` in steps of at most a few milliseconds (a held-out span of ~29,000 hourly rows
 * costs 250–360 ms of CPU in all): a service runs it in slices of its event loop.
 */
export function* evaluateSpanSteps(span: string, rows: readonly EvaluatedHour[], options: EvaluationOptions = DEFAULT_EVALUATION): Steps<SpanEvaluation> {
  const unconditional: { hours: number; meanPct: number | null; upShare: number | null }[] = [];
  for (const h of EVALUATION_HORIZONS) {
    const f = forwardSummary(rows, h);
    // A flat hour is neither up nor down, as the reliability table grades calls (a zero return is no hit and no miss).
    unconditional.push({ hours: h, meanPct: roundOrNull(f.mean === null ? null : f.mean * 100), upShare: f.moved === 0 ? null : roundOrNull(f.up / f.moved) });
    yield;
  }
  const cis = new Map<EvaluationHorizon, Map<TaoRuling, readonly [number, number]>>();
  for (const h of EVALUATION_HORIZONS) cis.set(h, yield* bootstrapExcess(rows, h, options));
  yield;
  const byRuling = new Map<TaoRuling, EvaluatedHour[]>();
  for (const r of rows) appendTo(byRuling, r.ruling, r);
  yield;
  const rulings: RulingRow[] = [];
  for (const ruling of TAO_RULINGS) {
    const mine = byRuling.get(ruling);
    if (mine === undefined) continue;
    rulings.push({
      ruling,
      count: mine.length,
      share: roundOrNull(mine.length / rows.length) as number,
      horizons: EVALUATION_HORIZONS.map((h, i) => {
        const { graded, mean: m } = forwardSummary(mine, h);
        const u = unconditional[i]?.meanPct ?? null;
        return {
          hours: h,
          graded,
          meanPct: roundOrNull(m === null ? null : m * 100),
          excessPct: m === null || u === null ? null : roundOrNull(m * 100 - u),
          excessCi90: cis.get(h)?.get(ruling) ?? null,
        };
      }),
    });
    yield;
  }
  const rankIc: RankIc[] = [];
  for (const h of EVALUATION_HORIZONS) {
    rankIc.push(yield* rankIcAt(rows, h));
    yield;
  }
  const byYear = new Map<number, EvaluatedHour[]>();
  // A Date only when a row leaves the current year's bounds, not one per row.
  let year = 0;
  let yearFrom = Number.POSITIVE_INFINITY;
  let yearTo = Number.NEGATIVE_INFINITY;
  for (const r of rows) {
    if (r.at < yearFrom || r.at >= yearTo) {
      year = new Date(r.at).getUTCFullYear();
      yearFrom = Date.UTC(year, 0, 1);
      yearTo = Date.UTC(year + 1, 0, 1);
    }
    appendTo(byYear, year, r);
  }
  yield;
  const rankIcByYear: { year: number; horizons: RankIc[] }[] = [];
  for (const year of [...byYear.keys()].sort((a, b) => a - b)) {
    const mine = byYear.get(year) as EvaluatedHour[];
    const horizons: RankIc[] = [];
    for (const h of EVALUATION_HORIZONS) {
      horizons.push(yield* rankIcAt(mine, h));
      yield;
    }
    rankIcByYear.push({ year, horizons });
  }
  return {
    span,
    from: rows[0]?.at ?? null,
    to: rows[rows.length - 1]?.at ?? null,
    hours: rows.length,
    unconditional,
    rulings,
    rankIc,
    rankIcByYear,
    reliability: yield* reliability(rows, options.confidenceHorizon),
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
