const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** How far back the AI-sector history reaches (the dark_pool z-scores use the same 90 days). */
export const SECTOR_HISTORY_MS = 90 * DAY;

/**
 * The observed value is a 24 h change sampled hourly, so neighbouring samples overlap and are
 * far from independent: what counts is the number of distinct days. 14 days span gives about
 * 14 non-overlapping 24 h windows (roughly 3 below a 20th percentile); 168 hourly samples (half
 * of those 14 days) keeps a history with long gaps from passing on span alone.
 */
export const MIN_HISTORY_SPAN_MS = 14 * DAY;
export const MIN_HISTORY_SAMPLES = 168;

/** p-th percentile (0..100) with linear interpolation between closest ranks (numpy's default). */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (rank - lo);
}

/**
 * The 20th percentile of the observations in (at − 90 d, at], or null while that history is too
 * short to make a percentile meaningful (MIN_HISTORY_SPAN_MS and MIN_HISTORY_SAMPLES).
 */
export function historyPercentile20(history: readonly { readonly value: number; readonly observedAt: number }[], at: number): number | null {
  const window = history.filter((h) => h.observedAt <= at && h.observedAt > at - SECTOR_HISTORY_MS);
  if (window.length < MIN_HISTORY_SAMPLES) return null;
  const first = Math.min(...window.map((h) => h.observedAt));
  const last = Math.max(...window.map((h) => h.observedAt));
  if (last - first < MIN_HISTORY_SPAN_MS) return null;
  return percentile(
    window.map((h) => h.value),
    20,
  );
}
