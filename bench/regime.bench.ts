import { baumWelch } from "../src/domain/regime/baum-welch.js";
import { buildFeatures } from "../src/domain/regime/features.js";
import { initialParams } from "../src/domain/regime/initial-params.js";
import { OnlineFilter } from "../src/domain/regime/online-filter.js";
import { fitStandardizer, standardize } from "../src/domain/regime/standardizer.js";
import { varianceFloors } from "../src/domain/regime/variance-floor.js";
import { loadHourlyCandles } from "../test/support/csv-loader.js";
import { ensureHmmlearn, peerFit } from "../test/integration/regime/hmmlearn-runner.js";
import { result, type BenchResult } from "./result.js";

const STATES = 8;
const BARS = 8760;
const ITERATIONS = 100;
const SEED = 7;
const ROUNDS = 3;

/**
 * Issue 6: Baum-Welch for 8 states × 4 features on 8,760 hourly bars, 100 iterations, beside
 * hmmlearn 0.3.3 on the same data and initial parameters in the same run (target ≥ 10× faster),
 * and one online filtering step (target ≤ 20 µs).
 */
export async function run(): Promise<BenchResult[]> {
  const candles = loadHourlyCandles("btc_usdt_1h_binance.csv.gz", "2023-12-24", "2025-01-01");
  const raw = buildFeatures(candles);
  const tail = raw.obs.t - BARS;
  const sliced = { t: BARS, d: raw.obs.d, data: raw.obs.data.slice(tail * raw.obs.d) };
  const obs = standardize(sliced, fitStandardizer(sliced));
  const floors = varianceFloors(obs);
  const init = initialParams(obs, STATES, SEED, floors);
  const options = { maxIterations: ITERATIONS, tolerance: -Infinity, floors };

  // Two untimed runs let the JIT compile and settle the loops (with one, the first timed run was
  // still up to 1.5x slower on a shared machine).
  const ours = baumWelch(obs, init, options);
  baumWelch(obs, init, options);
  // Interleaved rounds, best of each side: this 2-core machine is shared, and a load burst
  // during one side's only run moved the ratio by 30% (hmmlearn 2.9 s quiet, 4.7 s under load).
  // Rounds expose both sides to the same load, and the minimum is the run least disturbed by it.
  const python = ensureHmmlearn();
  let oursMs = Infinity;
  let peerMs = Infinity;
  let peer: ReturnType<typeof peerFit> | null = null;
  for (let round = 0; round < ROUNDS; round++) {
    const fit = peerFit(python, init, obs, ITERATIONS);
    peer ??= fit;
    peerMs = Math.min(peerMs, fit.seconds * 1000);
    for (let i = 0; i < 2; i++) {
      const started = performance.now();
      baumWelch(obs, init, options);
      oursMs = Math.min(oursMs, performance.now() - started);
    }
  }
  if (peer === null) throw new Error("unreachable: ROUNDS >= 1");
  process.stderr.write(`regime: best of ${ROUNDS} interleaved rounds: ours ${oursMs.toFixed(1)} ms, hmmlearn ${peerMs.toFixed(1)} ms\n`);

  const filter = new OnlineFilter(ours.params);
  const steps = 200_000;
  for (let i = 0; i < BARS; i++) filter.step(obs.data, i * obs.d);
  const started = performance.now();
  for (let i = 0; i < steps; i++) filter.step(obs.data, (i % BARS) * obs.d);
  const stepUs = ((performance.now() - started) * 1000) / steps;

  const ppm = ((ours.loglik - peer.loglik) / Math.abs(peer.loglik)) * 1e6;
  return [
    result(
      `regime: Baum-Welch ${STATES}x4, ${BARS} bars, ${ITERATIONS} iterations (baseline hmmlearn 0.3.3)`,
      oursMs,
      "ms",
      "ratio <= 0.10 (>= 10x faster than hmmlearn)",
      oursMs <= 0.1 * peerMs,
      peerMs,
    ),
    // At a fixed iteration count the two EM paths interleave (hmmlearn's M-step adds a small
    // covariance prior): measured on this data at 50/100/150 iterations the gap was −0.0005,
    // −0.0075, +0.00005 nats of 31,035. So the target is "the same optimum", relative.
    result(
      "regime: fitted log-likelihood vs hmmlearn's, same start, same iterations (relative difference)",
      ppm,
      "ppm",
      ">= -1 ppm",
      ppm >= -1,
    ),
    result(`regime: online filtering step (${STATES} states, 4 features)`, stepUs, "µs", "<= 20 µs", stepUs <= 20),
  ];
}
