/** One line of bench/results.json (DEVELOPERS guide): a figure, its same-run baseline and target. */
export interface BenchResult {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** The same-run baseline the ratio is taken against; null where the target is absolute. */
  readonly baseline: number | null;
  /** value / baseline, or null without a baseline. */
  readonly ratio: number | null;
  /** Human-readable target, e.g. ">= 0.70 ratio" or "<= 20 µs"; null for a figure reported without one. */
  readonly target: string | null;
  /** Whether the target is met; null when there is no target (never true for a bare report). */
  readonly ok: boolean | null;
}

/** A benchmark module: bench/<name>.bench.ts exports `run`. */
export type BenchModule = { run: () => Promise<BenchResult[]> };

export function result(
  name: string,
  value: number,
  unit: string,
  target: string,
  ok: boolean,
  baseline: number | null = null,
): BenchResult {
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    name,
    value: round(value),
    unit,
    baseline: baseline === null ? null : round(baseline),
    ratio: baseline === null || baseline === 0 ? null : round(value / baseline),
    target,
    ok,
  };
}

/** A figure reported without a target (a baseline, a breakdown): `target: null, ok: null`. */
export function report(name: string, value: number, unit: string, baseline: number | null = null): BenchResult {
  return { ...result(name, value, unit, "", false, baseline), target: null, ok: null };
}
