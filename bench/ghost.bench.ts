import { runBacktest } from "../src/domain/ghost/backtest.js";
import type { BarInput } from "../src/domain/ghost/bar-input.js";
import { StandInInputs } from "../test/support/ghost-stand-in-inputs.js";
import type { Candle } from "../src/domain/signals/reading.js";
import { ASSETS, type Asset } from "../src/domain/signals/signal-keys.js";
import { between, loadHourlyCandles } from "../test/support/ghost-candles.js";
import { result, type BenchResult } from "./result.js";

/**
 * Ghost Trader backtest speed over the bundled hourly history of BTC, ETH, SOL and TAO (issue 8:
 * two years of hourly data in ≤ 30 s). The decision inputs are the technical stand-in
 * (test/support/ghost-stand-in-inputs.ts), not the judiciary/council engines, and nothing is
 * written to a store: this measures the Ghost rules themselves. Baseline, same run: building the
 * same inputs without running the traders, so the ratio is the traders' own cost.
 */
const TWO_YEARS = { from: "2024-01-01T00:00:00Z", to: "2026-01-01T00:00:00Z" };

function inputsFor(asset: Asset, candles: readonly Candle[]): BarInput[] {
  const s = new StandInInputs(asset);
  return candles.map((c) => s.next(c));
}

function timeIt(f: () => void): number {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
}

export async function run(): Promise<BenchResult[]> {
  const history = new Map(ASSETS.map((a) => [a, loadHourlyCandles(a)] as const));
  const window = new Map(ASSETS.map((a) => [a, between(history.get(a) ?? [], TWO_YEARS.from, TWO_YEARS.to)] as const));
  const bars = (m: Map<Asset, Candle[]>) => [...m.values()].reduce((s, c) => s + c.length, 0);

  // Warm-up pass so JIT compilation is not billed to the first measured asset.
  runBacktest("BTC", inputsFor("BTC", (window.get("BTC") ?? []).slice(0, 5_000)));

  const baselineWindow = timeIt(() => {
    for (const a of ASSETS) inputsFor(a, window.get(a) ?? []);
  });
  const backtestWindow = timeIt(() => {
    for (const a of ASSETS) runBacktest(a, inputsFor(a, window.get(a) ?? []));
  });
  const baselineFull = timeIt(() => {
    for (const a of ASSETS) inputsFor(a, history.get(a) ?? []);
  });
  const backtestFull = timeIt(() => {
    for (const a of ASSETS) runBacktest(a, inputsFor(a, history.get(a) ?? []));
  });
  const perBarUs = ((backtestFull - baselineFull) / bars(history)) * 1000;

  return [
    result(`ghost backtest, 4 assets, 2024-2025 (${bars(window)} bars)`, backtestWindow, "ms", "<= 30000 ms", backtestWindow <= 30_000, baselineWindow),
    result(`ghost backtest, 4 assets, full history (${bars(history)} bars)`, backtestFull, "ms", "<= 30000 ms", backtestFull <= 30_000, baselineFull),
    result("ghost trader step, per bar (full history minus inputs)", Math.max(0, perBarUs), "µs", "<= 50 µs", perBarUs <= 50),
  ];
}
