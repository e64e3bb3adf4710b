/**
 * Rounding of published and recorded figures, in one place so every figure rounds the same way:
 * half away from zero, with an epsilon so that 1.005 (stored as 1.00499999…) still rounds to 1.01.
 */
export function roundTo(x: number, decimals: number): number {
  const f = 10 ** decimals;
  const r = Math.sign(x) * Math.round(Math.abs(x) * f + Number.EPSILON * f) / f;
  // -0 would print as "0" anyway, but strict equality in tests and JSON both prefer +0.
  return r === 0 ? 0 : r;
}

/** A statistic that can be undefined (no samples, 0/0): rounded, or null rather than NaN in JSON. */
export function roundOrNull(x: number | null, decimals = 4): number | null {
  return x === null || !Number.isFinite(x) ? null : roundTo(x, decimals);
}
