/** Index of the last element ≤ x in an ascending array, or -1: the replay's "as of" lookup. */
export function lastIndexAtOrBefore(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) <= x) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}
