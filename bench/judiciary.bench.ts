import { performance } from "node:perf_hooks";
import { deliberate } from "../src/domain/council/deliberate.js";
import type { CouncilAsset, CouncilInput } from "../src/domain/council/council-types.js";
import { evaluateJudiciary } from "../src/domain/judiciary/evaluate.js";
import type { FeatureReading, JudiciaryInput } from "../src/domain/judiciary/feature-reading.js";
import { SIGNAL_KEYS } from "../src/domain/signals/signal-keys.js";
import { report, result, type BenchResult } from "./result.js";
import { median } from "./stats.js";

/**
 * Issue 7 targets: one Judiciary evaluation ≤ 50 µs; one council session in judiciary mode
 * ≤ 1 ms. Baseline, same run: a JSON round trip of the same input, the work every stored
 * verdict costs anyway, so the ratio says how the engine compares with merely persisting.
 */

// Replay-like coverage: the signals DECISIONS 7 gives no replay source are DEAD.
const DEAD = new Set(["SOPR", "EXCHANGE_NETFLOW", "PUT_CALL_RATIO", "OPTIONS_OI", "WHALE_FLOW", "LIQ_DIRECTIONAL_BIAS", "LIQ_CASCADE_RISK", "LIQ_PROXIMITY_ALERT", "BTC_OPEN_INTEREST", "BTC_DOMINANCE"]);

function btcReadings(i: number): FeatureReading[] {
  return SIGNAL_KEYS.map((key, k) =>
    DEAD.has(key) ? { key, value: null, status: "DEAD" as const } : { key, value: 40 + ((i * 7 + k * 13) % 30), status: "LIVE" as const },
  );
}

const ASSET_KEYS = ["RSI_1H", "RSI_4H", "EMA200_DISTANCE", "MACD_HIST", "VOLUME_RATIO", "REALIZED_VOL", "FUNDING_RATE", "BTC_RATIO_TREND", "DEFI_TVL_TREND", "US10Y", "DXY", "GOLD", "BTC_NASDAQ_CORR", "FEAR_GREED_INDEX", "BTC_EMA200_DISTANCE"];

function councilInputFor(asset: CouncilAsset, i: number): CouncilInput {
  const readings: FeatureReading[] =
    asset === "BTC" ? btcReadings(i) : ASSET_KEYS.map((key, k) => ({ key, value: ((i + k * 11) % 40) - 10, status: "LIVE" as const }));
  return {
    asset,
    at: Date.UTC(2025, 4, 14) + i * 1_800_000,
    regime: "BULL_TRENDING",
    price: 100,
    readings,
    calendar: { status: "CLEAR", hoursUntilTier1: null },
    snapshotSignals: {},
    ...(asset === "TAO" ? { tao: { liquidityStatus: "UNKNOWN" as const, lastHourRangePct: 1, volumeRatio: 1, aiSentiment: null } } : {}),
  };
}

/**
 * Median over batches of the mean µs per call, after a warm-up (JIT). Synchronous work is timed
 * without `await`, which would add a microtask per call that the engine itself never pays.
 */
function syncMicros(n: number, batches: number, fn: (i: number) => unknown): number {
  let keep: unknown;
  for (let i = 0; i < n; i++) keep = fn(i);
  const means: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) keep = fn(i);
    means.push(((performance.now() - t0) * 1000) / n);
  }
  if (keep === undefined) throw new Error("nothing computed");
  return median(means);
}

async function asyncMicros(n: number, batches: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < n; i++) await fn(i);
  const means: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await fn(i);
    means.push(((performance.now() - t0) * 1000) / n);
  }
  return median(means);
}

export async function run(): Promise<BenchResult[]> {
  const inputs: JudiciaryInput[] = Array.from({ length: 64 }, (_, i) => ({ readings: btcReadings(i), regime: "BULL_TRENDING", price: 100_000 }));
  const baseline = syncMicros(5_000, 7, (i) => JSON.parse(JSON.stringify(inputs[i % 64])) as unknown);
  const judiciary = syncMicros(5_000, 7, (i) => evaluateJudiciary("BTC", inputs[i % 64] as JudiciaryInput));

  const councils = (["BTC", "TAO", "SOL"] as const).map((asset) => ({ asset, inputs: Array.from({ length: 32 }, (_, i) => councilInputFor(asset, i)) }));
  const sessionMicros: Record<string, number> = {};
  for (const c of councils) {
    sessionMicros[c.asset] = await asyncMicros(500, 7, (i) => deliberate(c.inputs[i % 32] as CouncilInput, { advisor: null, newId: () => "bench" }));
  }
  const worstSession = Math.max(...Object.values(sessionMicros));

  return [
    report("judiciary.json_roundtrip_baseline_us", baseline, "µs"),
    result("judiciary.evaluate_btc_us", judiciary, "µs", "<= 50 µs", judiciary <= 50, baseline),
    result("council.judiciary_session_btc_us", sessionMicros.BTC ?? 0, "µs", "<= 1000 µs", (sessionMicros.BTC ?? Infinity) <= 1000, baseline),
    result("council.judiciary_session_tao_us", sessionMicros.TAO ?? 0, "µs", "<= 1000 µs", (sessionMicros.TAO ?? Infinity) <= 1000, baseline),
    result("council.judiciary_session_sol_us", sessionMicros.SOL ?? 0, "µs", "<= 1000 µs", (sessionMicros.SOL ?? Infinity) <= 1000, baseline),
    result("council.judiciary_session_worst_us", worstSession, "µs", "<= 1000 µs", worstSession <= 1000, baseline),
  ];
}
