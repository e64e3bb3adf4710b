/**
 * How one input becomes a bullish (+) or bearish (−) contribution in [-1, 1]. Every rule carries
 * the plain-English reading a trader sees in the evidence, so the numbers never stand alone.
 */
export interface ContributionRule {
  /** Base weight before the adaptive multiplier (all 1 today; kept for documented tuning). */
  readonly weight: number;
  readonly contribution: (value: number, price: number | null) => number;
  /** Why the value points where it does, e.g. "oversold below 30 is bullish". */
  readonly describe: (value: number, contribution: number) => string;
}

export function clampUnit(x: number): number {
  if (!Number.isFinite(x)) return 0;
  return x > 1 ? 1 : x < -1 ? -1 : x;
}

/** Linear around a neutral centre: contribution reaches ±1 at centre ± scale. */
export function linear(centre: number, scale: number, sign: 1 | -1 = 1): (v: number) => number {
  return (v) => clampUnit((sign * (v - centre)) / scale);
}

export function lean(c: number): string {
  if (c >= 0.5) return "bullish";
  if (c > 0.05) return "mildly bullish";
  if (c <= -0.5) return "bearish";
  if (c < -0.05) return "mildly bearish";
  return "neutral";
}

/** A rule whose description is "<label> <value><unit>: <lean>; rule: <why>". */
export function rule(
  label: string,
  unit: string,
  why: string,
  contribution: (value: number, price: number | null) => number,
  weight = 1,
): ContributionRule {
  return {
    weight,
    contribution,
    describe: (value, c) => `${label} ${formatValue(value)}${unit}: ${lean(c)}; rule: ${why}`,
  };
}

/**
 * A reading as a trader reads it in a reason: an index as the integer it is ("Fear & Greed 8", not
 * 8.00), and a small figure with three significant digits, so a funding rate of −0.0012 % per 8 h
 * does not read "-0.00%" beside a rule that is neutral at 0.01 %.
 */
export function formatValue(v: number): string {
  const a = Math.abs(v);
  if (a >= 1000) return v.toFixed(0);
  if (Number.isInteger(v)) return String(v);
  if (a >= 10) return v.toFixed(1);
  if (a >= 0.01) return v.toFixed(2);
  // Three significant digits, trailing zeros dropped; at most 8 decimals (below that it is 0).
  const decimals = Math.min(8, 2 - Math.floor(Math.log10(a)));
  return String(Number(v.toFixed(decimals)));
}
