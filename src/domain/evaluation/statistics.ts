import { pearson as signalsPearson } from "../signals/derivations.js";

/** Mean of the numbers, or null for none. */
export function mean(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** Ranks 1..n with ties given their average rank. */
export function ranks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(xs.length);
  let i = 0;
  while (i < order.length) {
    let j = i;
    while (j + 1 < order.length && (order[j + 1] as readonly [number, number])[0] === (order[i] as readonly [number, number])[0]) j++;
    const r = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) out[(order[k] as readonly [number, number])[1]] = r;
    i = j + 1;
  }
  return out;
}

/** Pearson correlation (the signals' one), or null when either side is constant or there are fewer than 3 pairs. */
export function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  const n = Math.min(xs.length, ys.length);
  if (n < 3) return null;
  const r = signalsPearson(xs.slice(0, n), ys.slice(0, n));
  return Number.isNaN(r) ? null : r;
}

/** Spearman rank correlation with its t statistic (n − 2 degrees of freedom). */
export function spearman(xs: readonly number[], ys: readonly number[]): { readonly rho: number | null; readonly t: number | null; readonly n: number } {
  const n = Math.min(xs.length, ys.length);
  const rho = pearson(ranks(xs.slice(0, n)), ranks(ys.slice(0, n)));
  const t = rho === null || Math.abs(rho) >= 1 ? null : rho * Math.sqrt((n - 2) / (1 - rho * rho));
  return { rho, t, n };
}

/** The q-quantile (0..1) of sorted numbers, linear between order statistics. */
export function quantileSorted(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (pos - lo);
}
