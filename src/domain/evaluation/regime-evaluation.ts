import type { Regime } from "../market/vocabulary.js";
import { appendTo, mean, ranks } from "./statistics.js";

const HOUR = 3_600_000;

/** One published hourly regime with the volatility before it and what followed it over 24 h. */
export interface RegimeHour {
  readonly at: number;
  readonly regime: Regime;
  /** Realised volatility of the 24 hourly returns before `at`, annualised (√8760), %. */
  readonly trailingVolPct: number;
  /** The same over the 24 h after `at`; null until they have passed. */
  readonly forwardVolPct: number | null;
  /** Return over the 24 h after `at`; null until known. */
  readonly forwardReturn: number | null;
}

export interface RegimeRow {
  readonly regime: Regime;
  /** Hours the regime was published, including the last 24, whose outcome is not known yet. */
  readonly hours: number;
  /** Hours whose next 24 h are known: what the means and the up share are over. */
  readonly gradedHours: number;
  readonly meanForwardReturnPct: number | null;
  readonly upShare: number | null;
  readonly meanForwardVolPct: number | null;
}

export interface RegimeEvaluation {
  readonly from: number | null;
  readonly to: number | null;
  readonly hours: number;
  readonly regimes: readonly RegimeRow[];
  /** Share of the variance of log forward volatility explained by log trailing volatility alone. */
  readonly r2TrailingVol: number | null;
  /** The same with a level per regime added: what the regime adds is the difference. */
  readonly r2TrailingVolPlusRegime: number | null;
  readonly r2AddedByRegime: number | null;
  /** Kruskal-Wallis test of forward 24 h returns across regimes on non-overlapping days. */
  readonly returnsKruskalWallis: { readonly h: number | null; readonly df: number; readonly pValue: number | null; readonly samples: number };
}

const round = (x: number | null, d = 4): number | null => (x === null || !Number.isFinite(x) ? null : Math.round(x * 10 ** d) / 10 ** d);

/** Upper tail of the chi-square distribution (Wilson–Hilferty; accurate to ~1e-3 for df ≥ 1, enough to read a p-value). */
export function chiSquareSurvival(x: number, df: number): number {
  if (x <= 0) return 1;
  const z = (Math.cbrt(x / df) - (1 - 2 / (9 * df))) / Math.sqrt(2 / (9 * df));
  return 0.5 * erfc(z / Math.SQRT2);
}

function erfc(x: number): number {
  // Numerical Recipes' erfcc: fractional error below 1.2e-7.
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
  return x >= 0 ? r : 2 - r;
}

function kruskalWallis(groups: readonly (readonly number[])[]): { h: number | null; df: number; pValue: number | null; samples: number } {
  const used = groups.filter((g) => g.length > 0);
  const all = used.flat();
  const n = all.length;
  const df = used.length - 1;
  if (df < 1 || n < 3) return { h: null, df: Math.max(0, df), pValue: null, samples: n };
  const r = ranks(all);
  let offset = 0;
  let sum = 0;
  for (const g of used) {
    let rs = 0;
    for (let i = 0; i < g.length; i++) rs += r[offset + i] as number;
    sum += (rs * rs) / g.length;
    offset += g.length;
  }
  const h = (12 / (n * (n + 1))) * sum - 3 * (n + 1);
  return { h: round(h, 3), df, pValue: round(chiSquareSurvival(h, df)), samples: n };
}

/** R² of y on x (OLS with intercept), optionally with a level per group (within-group slope). */
function rSquared(xs: readonly number[], ys: readonly number[], groups?: readonly string[]): number | null {
  const n = xs.length;
  if (n < 3) return null;
  const my = mean(ys) as number;
  let sst = 0;
  for (const y of ys) sst += (y - my) ** 2;
  if (sst === 0) return null;
  const keyOf = (i: number) => (groups ? (groups[i] as string) : "");
  const sums = new Map<string, { n: number; x: number; y: number }>();
  for (let i = 0; i < n; i++) {
    const s = sums.get(keyOf(i)) ?? { n: 0, x: 0, y: 0 };
    s.n++;
    s.x += xs[i] as number;
    s.y += ys[i] as number;
    sums.set(keyOf(i), s);
  }
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    const s = sums.get(keyOf(i)) as { n: number; x: number; y: number };
    const dx = (xs[i] as number) - s.x / s.n;
    sxy += dx * ((ys[i] as number) - s.y / s.n);
    sxx += dx * dx;
  }
  const b = sxx === 0 ? 0 : sxy / sxx;
  let ssr = 0;
  for (let i = 0; i < n; i++) {
    const s = sums.get(keyOf(i)) as { n: number; x: number; y: number };
    const fit = s.y / s.n + b * ((xs[i] as number) - s.x / s.n);
    ssr += ((ys[i] as number) - fit) ** 2;
  }
  return 1 - ssr / sst;
}

/**
 * What the published regime says about the next 24 h: forward return and volatility per
 * regime, and whether the regime predicts volatility better than the trailing volatility a
 * trader can compute without any model (R² of log forward vol with and without regime levels).
 */
export function evaluateRegimes(rows: readonly RegimeHour[]): RegimeEvaluation {
  const byRegime = new Map<Regime, RegimeHour[]>();
  for (const r of rows) appendTo(byRegime, r.regime, r);
  const regimes: RegimeRow[] = [...byRegime.entries()]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([regime, rs]) => {
      const fr = rs.map((r) => r.forwardReturn).filter((x): x is number => x !== null);
      const fv = rs.map((r) => r.forwardVolPct).filter((x): x is number => x !== null);
      const m = mean(fr);
      return {
        regime,
        hours: rs.length,
        gradedHours: fr.length,
        meanForwardReturnPct: round(m === null ? null : m * 100),
        upShare: fr.length === 0 ? null : round(fr.filter((x) => x > 0).length / fr.length),
        meanForwardVolPct: round(mean(fv), 2),
      };
    });
  const vol = rows.filter((r) => r.forwardVolPct !== null && r.forwardVolPct > 0 && r.trailingVolPct > 0);
  const xs = vol.map((r) => Math.log(r.trailingVolPct));
  const ys = vol.map((r) => Math.log(r.forwardVolPct as number));
  const r2a = rSquared(xs, ys);
  const r2b = rSquared(xs, ys, vol.map((r) => r.regime));
  // Non-overlapping days for the returns test, so no 24 h outcome counts twice.
  const groups = new Map<Regime, number[]>();
  let next = Number.NEGATIVE_INFINITY;
  for (const r of rows) {
    if (r.forwardReturn === null || r.at < next) continue;
    appendTo(groups, r.regime, r.forwardReturn);
    next = r.at + 24 * HOUR;
  }
  return {
    from: rows[0]?.at ?? null,
    to: rows[rows.length - 1]?.at ?? null,
    hours: rows.length,
    regimes,
    r2TrailingVol: round(r2a),
    r2TrailingVolPlusRegime: round(r2b),
    r2AddedByRegime: r2a === null || r2b === null ? null : round(r2b - r2a),
    returnsKruskalWallis: kruskalWallis([...groups.values()]),
  };
}
