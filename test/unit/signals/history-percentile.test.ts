import { describe, expect, it } from "vitest";
import { historyPercentile20, MIN_HISTORY_SAMPLES, MIN_HISTORY_SPAN_MS, percentile } from "../../../src/domain/signals/history-percentile.js";

const H = 3_600_000;
const DAY = 24 * H;
const T0 = Date.UTC(2026, 0, 1);

describe("percentile (linear interpolation between closest ranks)", () => {
  it("matches values worked out by hand", () => {
    expect(percentile([], 20)).toBeNull();
    expect(percentile([7], 20)).toBe(7);
    // sorted 1..5: rank 0.2 × 4 = 0.8 → 1 + 0.8 × (2 − 1)
    expect(percentile([5, 3, 1, 4, 2], 20)).toBeCloseTo(1.8, 12);
    // sorted 10, 20, 30, 40: rank 0.2 × 3 = 0.6 → 10 + 0.6 × 10
    expect(percentile([40, 10, 30, 20], 20)).toBeCloseTo(16, 12);
    expect(percentile([40, 10, 30, 20], 0)).toBe(10);
    expect(percentile([40, 10, 30, 20], 100)).toBe(40);
  });
});

describe("historyPercentile20: not before the history is long enough", () => {
  const hourly = (hours: number, value: (k: number) => number) => Array.from({ length: hours }, (_, k) => ({ observedAt: T0 + k * H, value: value(k) }));

  it("null with under 14 days of span, even with many samples", () => {
    const h = hourly(14 * 24, (k) => k % 5); // spans 14 d − 1 h
    expect(MIN_HISTORY_SPAN_MS).toBe(14 * DAY);
    expect(historyPercentile20(h, T0 + 14 * DAY)).toBeNull();
    expect(historyPercentile20([...h, { observedAt: T0 + 14 * DAY, value: 0 }], T0 + 14 * DAY)).not.toBeNull();
  });

  it("null with the span but under 168 samples", () => {
    const sparse = Array.from({ length: MIN_HISTORY_SAMPLES - 1 }, (_, k) => ({ observedAt: T0 + k * 3 * H, value: k }));
    expect(sparse.at(-1)?.observedAt).toBeGreaterThan(T0 + 20 * DAY);
    expect(historyPercentile20(sparse, T0 + 30 * DAY)).toBeNull();
    const enough = [...sparse, { observedAt: T0 + 21 * DAY, value: 0 }];
    expect(historyPercentile20(enough, T0 + 30 * DAY)).not.toBeNull();
  });

  it("uses only (at − 90 d, at]: nothing after `at`, nothing older than 90 days", () => {
    // 15 days cycling −4, −2, 0, 2, 4: 72 of each, so rank 0.2 × 359 = 71.8 lies between −4 and −2.
    const h = hourly(360, (k) => [-4, -2, 0, 2, 4][k % 5] as number);
    const at = T0 + 360 * H;
    expect(historyPercentile20(h, at)).toBeCloseTo(-2.4, 12);
    const later = [...h, { observedAt: at + H, value: -100 }];
    expect(historyPercentile20(later, at)).toBeCloseTo(-2.4, 12);
    const ancient = [{ observedAt: at - 91 * DAY, value: -100 }, ...h];
    expect(historyPercentile20(ancient, at)).toBeCloseTo(-2.4, 12);
  });
});
