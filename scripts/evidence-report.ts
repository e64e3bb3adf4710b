import { writeReport } from "./write-report.js";
import { ReplayMarketFeed } from "../src/feeds/replay/replay-feed.js";
import { calibratedStream, pricePath, streamId, type RulingStream } from "../src/application/ruling-streams.js";
import { withOutcomesBySpan } from "../src/domain/evaluation/stream-outcomes.js";
import { regimeHoursFrom } from "../src/application/regime-hours.js";
import { BACKTEST_REGIME_DEFAULTS, regimeTimeline } from "../src/backtest/engine-backtest.js";
import { DEFAULT_RESTARTS } from "../src/domain/regime/fit-hmm.js";
import { evaluateStream, HELD_OUT_FROM, type SpanEvaluation } from "../src/domain/evaluation/verdict-evaluation.js";
import { evaluateRegimes, type RegimeEvaluation } from "../src/domain/evaluation/regime-evaluation.js";
import { DEFAULT_CALIBRATION } from "../src/domain/calibration/calibration-map.js";
import type { StoredRegime } from "../src/store/ports/regime-history.js";
import type { RegimeReport } from "../src/domain/regime/regime-report.js";
import { ROSTERS } from "../src/domain/council/rosters.js";
import type { CouncilAsset } from "../src/domain/council/council-types.js";

/**
 * Issue 16: the evidence behind what the service publishes, over the whole bundled history, the
 * two spans of the evaluation protocol reported apart (rules chosen on data to 2022-12-31,
 * 2023-01-01 onward held out):
 *
 *   npx tsx scripts/evidence-report.ts [--streams verdict:BTC,...|none] [--regime-restarts N] [--out docs/evaluation-figures.md | --out -]
 *
 * Every ruling stream is the one `verdicts export` writes (same engine, same walk-forward
 * calibration); the regime is the walk-forward BTC regime (weekly refits, warm started) with the
 * RegimeActor's 10 seeded restarts per refit, since the section judges the regime the service
 * publishes (the backtests run one restart to stay short; with one, the labels and the
 * Kruskal-Wallis p move, docs/evaluation.md). `--regime-restarts 1 --streams none` gives that
 * variant in a minute. Nothing is stored.
 */
const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const ALL = "verdict:BTC,verdict:ETH,verdict:SOL,verdict:TAO,council:BTC,council:SOL,council:TAO";
const streamList = opt("--streams") ?? ALL;
const streams: RulingStream[] = (streamList === "none" ? [] : streamList.split(",")).map((s) => {
  const [kind, asset] = s.split(":");
  return { kind, asset } as RulingStream;
});
const out = opt("--out") ?? "docs/evaluation-figures.md";
const regimeRestarts = Number(opt("--regime-restarts") ?? DEFAULT_RESTARTS);
if (!Number.isInteger(regimeRestarts) || regimeRestarts < 1) throw new Error("--regime-restarts must be a whole number ≥ 1");

const t0 = performance.now();
const feed = await ReplayMarketFeed.load("market-data");
const f = (x: number | null, d = 3) => (x === null ? "n/a" : x.toFixed(d));
const iso = (t: number | null) => (t === null ? "n/a" : new Date(t).toISOString().slice(0, 10));

function spanSection(s: SpanEvaluation): string[] {
  const r = s.reliability;
  const lines = [
    `#### ${s.span === "to_2022" ? "In-sample: to 2022-12-31 (rules chosen here)" : "Held out: 2023-01-01 onward"} (${iso(s.from)} → ${iso(s.to)}, ${s.hours} hourly rulings)`,
    "",
    `Directional calls graded at 24 h: **${r.calls}**, hit rate ${f(r.hitRate)}. Confidence quintiles, mean |confidence − hit rate|: **${f(r.quintileMeanAbsGap)}**${r.quintileGapIfCalibrated === null ? "" : ` (a perfectly calibrated forecaster on these calls: median ${f(r.quintileGapIfCalibrated.median)}, 95th percentile ${f(r.quintileGapIfCalibrated.p95)})`}. Brier **${f(r.brier, 5)}** against ${f(r.brierBaseRate, 5)} for always forecasting the window's raw base rate (known at the time) and ${f(r.brierHindsightBaseRate, 5)} for the span's own up-share (hindsight).`,
    "",
    "| confidence quintile | calls | mean confidence | realised hit rate |",
    "|---|---:|---:|---:|",
    ...r.quintiles.map((b) => `| ${f(b.from)} – ${f(b.to)} | ${b.count} | ${f(b.meanConfidence)} | ${f(b.hitRate)} |`),
    "",
    "| ruling | hours | share | 4 h mean % (excess, 90% CI) | 24 h mean % (excess, 90% CI) | 72 h mean % (excess, 90% CI) |",
    "|---|---:|---:|---|---|---|",
    ...s.rulings.map(
      (x) =>
        `| ${x.ruling} | ${x.count} | ${f(x.share)} | ${x.horizons
          .map((h) => `${f(h.meanPct)} (${f(h.excessPct)}, ${h.excessCi90 === null ? "n/a" : `${f(h.excessCi90[0])} … ${f(h.excessCi90[1])}`})`)
          .join(" | ")} |`,
    ),
    `| all | ${s.hours} | 1 | ${s.unconditional.map((u) => `${f(u.meanPct)} (up ${f(u.upShare)})`).join(" | ")} |`,
    "",
    `Rank IC (Spearman of score with the forward return, non-overlapping samples): ${s.rankIc.map((x) => `${x.hours} h ${f(x.ic)} (t ${f(x.t, 2)}, n ${x.samples})`).join("; ")}.`,
    "",
    "| year | " + s.rankIc.map((x) => `IC ${x.hours} h`).join(" | ") + " |",
    "|---|" + s.rankIc.map(() => "---:").join("|") + "|",
    ...s.rankIcByYear.map((y) => `| ${y.year} | ${y.horizons.map((h) => `${f(h.ic)} (n ${h.samples})`).join(" | ")} |`),
    "",
  ];
  return lines;
}

/**
 * The council's agents, each calibrated on its own rule votes (what the vote lists publish as
 * `confidence`): one line per agent and span. The deliberations are the council stream's
 * (memoised), so this costs the calibration only.
 */
async function agentSection(asset: CouncilAsset, from: number, to: number, prices: ReturnType<typeof pricePath>): Promise<string[]> {
  const lines = [
    `#### ${asset} council agents: each vote calibrated on its agent's own rule votes`,
    "",
    "Graded votes are directional rule votes (HOLD names no direction; an abstention is no vote). A span an agent never voted in is left out.",
    "",
    "| agent | span | votes graded | hit rate | quintile gap | gap if calibrated (median / 95th) | Brier | Brier, base rate known then | rank IC 24 h (t) |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const agent of ROSTERS[asset].agents) {
    const run = await calibratedStream(feed, { kind: "agent", asset, agent: agent.name }, from, to);
    const spans = evaluateStream(withOutcomesBySpan(run.rows, prices, to));
    if (spans.length === 0) lines.push(`| ${agent.name} | all | 0 | abstains throughout: the bundled history has no data for its inputs | | | | | |`);
    for (const s of spans) {
      const r = s.reliability;
      const ic = s.rankIc.find((x) => x.hours === 24);
      const band = r.quintileGapIfCalibrated === null ? "n/a" : `${f(r.quintileGapIfCalibrated.median)} / ${f(r.quintileGapIfCalibrated.p95)}`;
      lines.push(
        `| ${agent.name} | ${s.span === "to_2022" ? "to 2022" : "from 2023"} | ${r.calls} | ${f(r.hitRate)} | ${f(r.quintileMeanAbsGap)} | ${band} | ${f(r.brier, 5)} | ${f(r.brierBaseRate, 5)} | ${ic === undefined ? "n/a" : `${f(ic.ic)} (${f(ic.t, 1)})`} |`,
      );
    }
  }
  lines.push("");
  return lines;
}

function regimeSection(title: string, e: RegimeEvaluation): string[] {
  return [
    `#### ${title} (${iso(e.from)} → ${iso(e.to)}, ${e.hours} hours)`,
    "",
    "| regime | hours | next 24 h mean return % | up share | next 24 h realised vol % (annualised) |",
    "|---|---:|---:|---:|---:|",
    ...e.regimes.map((r) => `| ${r.regime} | ${r.hours} | ${f(r.meanForwardReturnPct)} | ${f(r.upShare)} | ${f(r.meanForwardVolPct, 1)} |`),
    "",
    `R² of log next-24 h volatility on log trailing-24 h volatility: **${f(e.r2TrailingVol)}**; with a level per regime added: **${f(e.r2TrailingVolPlusRegime)}** (the regime adds ${f(e.r2AddedByRegime)}; by chance, with the regime sequence shifted against the hours, ${e.r2AddedByChance === null ? "n/a" : `median ${f(e.r2AddedByChance.median)}, 95th percentile ${f(e.r2AddedByChance.p95)}, p ${f(e.r2AddedByChance.pValue)}`}). Kruskal-Wallis of next-24 h returns across regimes on non-overlapping days: H ${f(e.returnsKruskalWallis.h, 2)}, df ${e.returnsKruskalWallis.df}, p ${f(e.returnsKruskalWallis.pValue)} (n ${e.returnsKruskalWallis.samples}).`,
    "",
  ];
}

const md: string[] = [
  "# Evaluation figures (generated)",
  "",
  `Generated by \`npx tsx scripts/evidence-report.ts\` over the bundled history; what each figure means is in [evaluation.md](evaluation.md). Confidence horizon ${DEFAULT_CALIBRATION.horizonHours} h; calibration window ${DEFAULT_CALIBRATION.windowDays} days, refitted daily (walk-forward). Costs do not enter these figures (no trades); the Ghost Trader figures with costs are in [track-record.md](track-record.md).`,
  "",
];
const timings: string[] = [];
for (const stream of streams) {
  const ts = performance.now();
  const prices = pricePath(feed, stream.asset, Number.MAX_SAFE_INTEGER);
  const to = prices.timeAt(prices.length - 1);
  const run = await calibratedStream(feed, stream, prices.timeAt(0), to);
  const spans = evaluateStream(withOutcomesBySpan(run.rows, prices, to));
  md.push(`### ${streamId(stream)}`, "");
  for (const s of spans) md.push(...spanSection(s));
  if (stream.kind === "council") md.push(...(await agentSection(stream.asset, prices.timeAt(0), to, prices)));
  timings.push(`${streamId(stream)} ${((performance.now() - ts) / 1000).toFixed(1)} s`);
}

const btc = pricePath(feed, "BTC", Number.MAX_SAFE_INTEGER);
const first = btc.timeAt(0) + 200 * 3_600_000;
const last = btc.timeAt(btc.length - 1);
const tr = performance.now();
const timeline = regimeTimeline(feed, first, last, { refitEveryBars: BACKTEST_REGIME_DEFAULTS.refitEveryBars, restarts: regimeRestarts });
const published: StoredRegime[] = [...timeline.entries()].map(([t, v]) => ({ at: t + 3_600_000, report: { regime: v.regime } as RegimeReport }));
// The in-sample hours are graded as known at 2023-01-01: none reads a held-out price (DECISIONS 7).
const inSampleHours = regimeHoursFrom(published.filter((p) => p.at < HELD_OUT_FROM), btc, HELD_OUT_FROM);
const heldOutHours = regimeHoursFrom(published.filter((p) => p.at >= HELD_OUT_FROM), btc, last);
md.push("### Regime (BTC)", "", `Walk-forward over the bundled BTC history: 180-day window, refitted every ${BACKTEST_REGIME_DEFAULTS.refitEveryBars} bars (weekly, as the RegimeActor), warm-started, ${regimeRestarts} seeded restart(s) per refit (the service's RegimeActor runs ${DEFAULT_RESTARTS}). Flow signals DEAD (no flow data bundled).`, "");
md.push(...regimeSection("In-sample: to 2022-12-31", evaluateRegimes(inSampleHours)));
md.push(...regimeSection("Held out: 2023-01-01 onward", evaluateRegimes(heldOutHours)));
timings.push(`regime ${((performance.now() - tr) / 1000).toFixed(1)} s`);
md.push(`_Run time: ${((performance.now() - t0) / 1000).toFixed(0)} s (${timings.join(", ")})._`, "");
writeReport(out, md.join("\n"));
