import { spawn } from "node:child_process";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { ReplayMarketFeed } from "../src/feeds/replay/replay-feed.js";
import { evaluateJudiciary } from "../src/domain/judiciary/evaluate.js";
import { judiciaryInputAt } from "../src/application/judiciary-inputs.js";
import { calibratedStream, pricePath } from "../src/application/ruling-streams.js";
import { withOutcomes, withOutcomesSteps } from "../src/domain/evaluation/stream-outcomes.js";
import { evaluateSpan, evaluateSpanSteps, HELD_OUT_FROM } from "../src/domain/evaluation/verdict-evaluation.js";
import { GradedHours } from "../src/domain/evaluation/graded-hours.js";
import { runSteps } from "../src/domain/evaluation/steps.js";
import { drainSteps } from "../src/runtime/cooperative.js";
import { report, result, type BenchResult } from "./result.js";

/**
 * Issue 16. (1) The verdict export: the whole BTC history as a whole process, as a quant runs
 * it (target ≤ 300 s), and in-process rows/s against the same run's engine-only stream (the
 * scores without calibration), so the ratio is what calibration costs. (2) The evaluation
 * actor's recomputation over one year of hourly verdicts (outcomes + every statistic; target
 * ≤ 2 s), against the same rows' plain per-ruling mean forward return. (3) The longest the
 * event loop is held while the actor recomputes the held-out span (outcomes + evaluation, as
 * `EvidenceActor` runs it, in slices), against the same work run in one piece.
 */
const YEAR = 365 * 24 * 3_600_000;

function exportProcess(): Promise<{ ms: number; rows: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "verdicts", "export", "--asset", "BTC"], {
      env: { ...process.env, LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let lines = 0;
    child.stdout.on("data", (d: Buffer) => {
      for (const byte of d) if (byte === 10) lines++;
    });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve({ ms: performance.now() - t0, rows: lines - 1 }) : reject(new Error(`export exited ${code}`))));
  });
}

/** The longest the event loop went without turning while `work` ran, ms (1 ms timer resolution). */
async function longestBlock(work: () => Promise<unknown>): Promise<number> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  // Let the monitor's timer start before the work does.
  await new Promise((resolve) => setTimeout(resolve, 20));
  await work();
  await new Promise((resolve) => setTimeout(resolve, 20));
  delay.disable();
  return delay.max / 1e6;
}

function best(n: number, fn: () => void): number {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

export async function run(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  const whole = await exportProcess();
  out.push(result("evidence.export_btc_whole_history_process", whole.ms / 1000, "s", "<= 300 s", whole.ms <= 300_000));
  out.push(report("evidence.export_btc_rows", whole.rows, "rows"));

  // Fresh feeds: the stream memoises scored hours per feed object, so each side gets its own.
  const engineFeed = await ReplayMarketFeed.load("market-data");
  const prices = pricePath(engineFeed, "BTC", Number.MAX_SAFE_INTEGER);
  const first = prices.timeAt(0);
  const last = prices.timeAt(prices.length - 1);
  let t0 = performance.now();
  for (let i = 0; i < prices.length; i++) evaluateJudiciary("BTC", judiciaryInputAt(engineFeed, "BTC", prices.timeAt(i), null));
  const engineRate = prices.length / ((performance.now() - t0) / 1000);
  const streamFeed = await ReplayMarketFeed.load("market-data");
  t0 = performance.now();
  const stream = await calibratedStream(streamFeed, { kind: "verdict", asset: "BTC" }, first, last);
  const streamRate = stream.rows.length / ((performance.now() - t0) / 1000);
  out.push(report("evidence.export_rows_per_s_in_process", streamRate, "rows/s", engineRate));

  const yearRows = withOutcomes(stream.rows.filter((r) => r.at > last - YEAR), prices, last);
  const evalMs = best(3, () => {
    evaluateSpan("year", withOutcomes(stream.rows.filter((r) => r.at > last - YEAR), prices, last));
  });
  const plainMs = best(3, () => {
    const sums = new Map<string, { n: number; s: number }>();
    for (const r of yearRows) {
      const f = r.forward.h24;
      if (f === null) continue;
      const e = sums.get(r.ruling) ?? { n: 0, s: 0 };
      e.n++;
      e.s += f;
      sums.set(r.ruling, e);
    }
  });
  out.push(result("evidence.evaluation_one_year_recompute", evalMs, "ms", "<= 2000 ms", evalMs <= 2000, plainMs));
  out.push(report("evidence.evaluation_one_year_rows", yearRows.length, "rows"));

  // As the actor runs it: in slices, grading only what the evaluation 6 market hours before left
  // open (steady state); the first evaluation after an activation grades every row (cold).
  const heldOut = stream.rows.filter((r) => r.at >= HELD_OUT_FROM);
  const before = last - 6 * 3_600_000;
  const earlier = runSteps(withOutcomesSteps(heldOut.filter((r) => r.at <= before), prices.upTo(before), before));
  const sliced = async (previous: GradedHours) => {
    const graded = await drainSteps(withOutcomesSteps(heldOut.slice(previous.length), prices, last, previous));
    return drainSteps(evaluateSpanSteps("from_2023", await drainSteps(graded.rowsSteps())));
  };
  const onePiece = await longestBlock(async () => evaluateSpan("from_2023", withOutcomes(heldOut, prices, last)));
  // The worst of three: a tail figure, so no best-of.
  let steady = 0;
  for (let i = 0; i < 3; i++) steady = Math.max(steady, await longestBlock(() => sliced(earlier)));
  const cold = await longestBlock(() => sliced(new GradedHours()));
  out.push(result("evidence.evaluation_held_out_longest_event_loop_block", steady, "ms", "<= 10 ms", steady <= 10, onePiece));
  out.push(report("evidence.evaluation_held_out_longest_event_loop_block_cold", cold, "ms", onePiece));
  out.push(report("evidence.evaluation_held_out_rows", heldOut.length, "rows"));
  return out;
}
