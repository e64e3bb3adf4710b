import { join } from "node:path";
import { getStandardDeviation } from "trading-signals";
import { beforeAll, describe, expect, it } from "vitest";
import { RollingStats } from "../../../src/domain/indicators/rolling-stats.js";
import { TechnicalIndicators, type TechnicalValues } from "../../../src/domain/indicators/technical-indicators.js";
import { loadCsvTable, parseTime } from "../../../src/feeds/replay/csv-table.js";
import { DATASET_FILES } from "../../../src/feeds/replay/dataset-files.js";

/*
 * Fixture notes. Real data: Binance BTC/USDT 1 h bars opening 2024-01-01T00:00Z … 2024-03-31T23:00Z
 * (2,184 bars, no gaps), from market-data/btc_usdt_1h_binance.csv.gz. The expected values were
 * computed independently in plain Python (no shared code) from the same rows:
 *  - RSI(14), Wilder: seed = mean of the first 14 gains/losses, then avg = (avg·13 + x) / 14;
 *    RSI = 100 − 100 / (1 + avgGain/avgLoss)                         → 72.56426554517793
 *  - EMA(200) classic: SMA(200) seed, then α = 2/201                 → 69274.62237557227
 *    (trading-signals seeds with the first price; after 1,984 further bars the seeds differ by a
 *    factor (199/201)^1984 ≈ 2e-9, so both agree to 1e-6 — an independent check of the smoothing)
 *    distance (close − EMA) / EMA × 100                              → 2.894837323768455
 *  - MACD(12, 26, 9): EMAs seeded with the first close, signal seeded with the first MACD value
 *    (bar 26): macd 258.6206321658392, signal 194.71074280469546, histogram 63.90988936114374
 *  - realized vol: population stdev of the last 720 log returns × √8760 × 100 → 65.20427696595151
 *  - volume ratio: last volume / mean of the 24 volumes before it     → 1.972696476312575
 */
const EXPECTED = {
  rsi14: 72.56426554517793,
  ema200: 69274.62237557227,
  ema200DistancePct: 2.894837323768455,
  macd: 258.6206321658392,
  macdSignal: 194.71074280469546,
  macdHistogram: 63.90988936114374,
  realizedVolPct: 65.20427696595151,
  volumeRatio: 1.972696476312575,
};

const rel = (a: number | null, b: number) => Math.abs(((a ?? Number.NaN) - b) / b);

describe("TechnicalIndicators on real BTC 1 h data (Q1 2024)", () => {
  let last: TechnicalValues;
  let all: TechnicalValues[];

  beforeAll(async () => {
    const table = await loadCsvTable(join("market-data", DATASET_FILES.btc_1h.file), DATASET_FILES.btc_1h.spec);
    const from = parseTime("2024-01-01T00:00:00Z", "timestamp");
    const to = parseTime("2024-04-01T00:00:00Z", "timestamp");
    const ind = new TechnicalIndicators();
    all = [];
    const col = (n: string, i: number) => table.columns[n]?.[i] ?? Number.NaN;
    for (let i = 0; i < table.time.length; i++) {
      const t = table.time[i] ?? 0;
      if (t < from || t >= to) continue;
      all.push(ind.update({ t, o: col("open", i), h: col("high", i), l: col("low", i), c: col("close", i), v: col("volume", i) }));
    }
    expect(all).toHaveLength(2184);
    last = all[all.length - 1] as TechnicalValues;
  });

  it("matches the independently computed reference values", () => {
    for (const [field, expected] of Object.entries(EXPECTED)) {
      expect(rel(last[field as keyof typeof EXPECTED], expected), field).toBeLessThan(1e-6);
    }
  });

  it("reports null until each indicator has enough bars", () => {
    expect(all[13]?.rsi14).toBeNull();
    expect(all[14]?.rsi14).not.toBeNull();
    expect(all[198]?.ema200).toBeNull();
    expect(all[199]?.ema200).not.toBeNull();
    expect(all[24]?.macdHistogram).toBeNull();
    expect(all[25]?.macdHistogram).not.toBeNull();
    expect(all[23]?.volumeRatio).toBeNull();
    expect(all[24]?.volumeRatio).not.toBeNull();
    expect(all[719]?.realizedVolPct).toBeNull();
    expect(all[720]?.realizedVolPct).not.toBeNull();
  });

  it("rejects bars out of time order instead of corrupting state", () => {
    const ind = new TechnicalIndicators();
    ind.update({ t: 2, o: 1, h: 1, l: 1, c: 1, v: 1 });
    expect(() => ind.update({ t: 1, o: 1, h: 1, l: 1, c: 1, v: 1 })).toThrow(RangeError);
  });
});

describe("RollingStats", () => {
  it("matches a from-scratch stdev of the window at every step", () => {
    const stats = new RollingStats(50);
    const values: number[] = [];
    let x = 1;
    for (let i = 0; i < 20_000; i++) {
      x = (x * 16807) % 2147483647; // deterministic pseudo-random sequence
      const v = (x / 2147483647 - 0.5) * 0.02;
      values.push(v);
      stats.push(v);
      if (i % 997 === 0 && values.length >= 50) {
        const window = values.slice(-50);
        expect(stats.stdev()).toBeCloseTo(getStandardDeviation(window), 12);
      }
    }
  });

  it("refuses a window smaller than 2", () => {
    expect(() => new RollingStats(1)).toThrow(RangeError);
  });
});
