/**
 * Probabilities below this are set to exactly 0. EM drives unused transitions down
 * geometrically (1e-50, 1e-190, ...) until they, and every product with them, are subnormal
 * floats, which x86 handles in microcode at up to 100× the cost: a 100-iteration fit on a year of
 * BTC hours ran 5× slower for it. 1e-150 keeps products of two kept values normal (≥ 1e-300) and
 * changes no result by more than 1e-150 relative.
 */
export const FLUSH_BELOW = 1e-150;

/** exp(x) < FLUSH_BELOW exactly when x < this. */
export const LOG_FLUSH_BELOW = Math.log(FLUSH_BELOW);

/** Flushes tiny entries of a[from .. from+n) to 0 and renormalises them to sum to 1. */
export function flushDistribution(a: Float64Array, from: number, n: number): void {
  let sum = 0;
  for (let i = from; i < from + n; i++) {
    const v = a[i] as number;
    if (v < FLUSH_BELOW) a[i] = 0;
    else sum += v;
  }
  if (sum > 0 && sum !== 1) for (let i = from; i < from + n; i++) a[i] = (a[i] as number) / sum;
}
