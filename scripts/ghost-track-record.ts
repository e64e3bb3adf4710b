import { writeReport } from "./write-report.js";
import { ReplayMarketFeed } from "../src/feeds/replay/replay-feed.js";
import type { BacktestReport } from "../src/domain/ghost/backtest.js";
import { ASSETS, type Asset } from "../src/domain/signals/signal-keys.js";
import { BACKTEST_REGIME_DEFAULTS, runEngineBacktest } from "../src/backtest/engine-backtest.js";
import { backtestSpans, type SpanPerformance } from "../src/backtest/backtest-performance.js";
import { DEFAULT_COSTS } from "../src/domain/ghost/costs.js";
import { RANDOM_ENTRY_DRAWS, RANDOM_ENTRY_SEED } from "../src/domain/ghost/random-entry.js";

/**
 * The Ghost Traders' backtest with the service's real engines over the bundled history, written to
 * docs/track-record.md (issue 8). Nothing is written to any store: trades are synthetic.
 *
 *   npx tsx scripts/ghost-track-record.ts [--from ISO] [--to ISO] [--assets BTC,ETH] [--refit-bars 168]
 *     [--restarts 1] [--out docs/track-record.md | --out -]
 *
 * Without --from/--to every asset runs over its whole bundled history.
 */
const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const from = Date.parse(opt("--from") ?? "2017-01-01T00:00:00Z");
const to = Date.parse(opt("--to") ?? "2100-01-01T00:00:00Z");
const assets = (opt("--assets")?.split(",") ?? [...ASSETS]).filter((a): a is Asset => (ASSETS as readonly string[]).includes(a));
const refitEveryBars = Number(opt("--refit-bars") ?? BACKTEST_REGIME_DEFAULTS.refitEveryBars);
const restarts = Number(opt("--restarts") ?? BACKTEST_REGIME_DEFAULTS.restarts);
const out = opt("--out") ?? "docs/track-record.md";

const t0 = performance.now();
const feed = await ReplayMarketFeed.load("market-data");
const loadMs = performance.now() - t0;
const result = await runEngineBacktest(feed, { assets, from, to, regime: { refitEveryBars, restarts } });
const command = `npx tsx scripts/ghost-track-record.ts ${args.filter((a, i) => a !== "--out" && args[i - 1] !== "--out").join(" ")}`.trim();

const fmt = (x: number | null | undefined, digits = 2): string => (x === null || x === undefined ? "n/a" : x.toFixed(digits));
const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const bandText = (b: { mean: number; p5: number; p95: number } | null | undefined): string =>
  b === null || b === undefined ? "n/a" : `${fmt(b.mean)} [${fmt(b.p5)}, ${fmt(b.p95)}]`;

function exitReasons(r: BacktestReport): string {
  const m = new Map<string, number>();
  for (const t of r.trades) m.set(t.exitReason, (m.get(t.exitReason) ?? 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(", ") || "none";
}

/**
 * Against random entry with the same exits: inside, above or below its 90 % band of expectancy
 * in % of position cost (the random entries are sized from the starting equity and the trader
 * from its current one, so the USD bands would judge its equity's drift, not its entries).
 */
function verdict(p: SpanPerformance["performance"]): string {
  const m = p.benchmarks.randomEntry?.matched ?? null;
  if (p.trades === 0) return "stands aside";
  if (m === null) return "n/a";
  if (p.trades < 30) return `${p.trades} trades: too few to tell`;
  if (p.expectancyPct > m.expectancyPct.p95) return "better than random entry";
  if (p.expectancyPct < m.expectancyPct.p5) return "worse than random entry";
  return "no better than random entry";
}

const perSpan = result.reports.flatMap((r) => backtestSpans(feed, r, from, to).map((x) => ({ asset: r.asset, ...x })));
const rows = perSpan.map(({ asset, span, performance: p }) => {
  const bh = p.benchmarks.buyAndHold;
  const re = p.benchmarks.randomEntry;
  return `| ${asset} | ${span} (${p.from.slice(0, 10)} → ${p.to.slice(0, 10)}) | ${p.trades} | ${fmt(p.winRatePct, 1)} | ${fmt(p.profitFactor)} | ${fmt(p.expectancyUsd)} / ${fmt(p.expectancyPct, 3)} | ${fmt(p.returnPct, 3)} | ${fmt(p.maxRelativeDrawdown.pct)} | ${fmt(p.sharpe)} | ${fmt(p.exposurePct)} | ${fmt(bh?.returnPct, 1)} / ${fmt(bh?.scaledReturnPct, 3)} | ${fmt(re?.everyEntry.winRatePct, 1)} / ${fmt(re?.everyEntry.profitFactor)} | ${bandText(re?.matched?.profitFactor)} | ${bandText(re?.matched?.expectancyPct)} | ${verdict(p)} |`;
});
const reasons = result.reports.map((r) => `| ${r.asset} | ${exitReasons(r)} | ${r.openAtEnd ? "yes" : "no"} |`);
const totalTrades = result.reports.reduce((n, r) => n + r.stats.totalTrades, 0);
const verdicts = perSpan.filter((x) => x.span !== "whole").map((x) => `${x.asset} ${x.span}: ${verdict(x.performance)}`);

const md = [
  "# Ghost Traders: backtest track record (real engines)",
  "",
  `Generated ${new Date().toISOString().slice(0, 10)} by \`${command}\` (load ${s(loadMs)}, regime ${s(result.timings.regimeMs)}, total ${s(result.timings.totalMs)}).`,
  "Re-run it to regenerate this file; `--out -` prints instead of writing. The same figures per asset and span:",
  "`npm run --silent cli -- backtest --asset all --from 2017-01-01T00:00:00Z` (add `--json` for every field).",
  "What each figure means: docs/evaluation.md, \"Ghost Trader performance\".",
  "",
  "## How it is computed",
  "",
  "- Data: the bundled history in market-data/ through the replay feed; every read is \"as of\" the bar close.",
  "- Per closed hourly bar: the asset's Judiciary verdict (`judiciaryInputAt` + `evaluateJudiciary`, multipliers 1.0),",
  "  the judiciary-mode council session for BTC, SOL and TAO (`deliberate` without an advisor; a BLACKOUT day pauses",
  "  the councils, and a session over an hour old gates nothing, as in the service), whose own ruling and",
  "  calibrated confidence decide the council gate (SPEC 8, DECISIONS 7), the BTC regime from",
  "  `walkForward` and the 1 h indicators of the feed — the inputs the",
  "  service's Ghost Traders read, run through the same `stepGhost`.",
  "- Confidence: each verdict's and council session's confidence is the walk-forward calibrated probability the service publishes",
  "  (`calibratedStream`, src/application/ruling-streams.ts: the map of each UTC day fitted on outcomes matured by then,",
  "  DECISIONS 7 \"Confidence\"), so the entry thresholds (BTC and SOL 0.65 via the council gate, ETH 0.65, TAO 0.72) are",
  "  real hit rates; a trader whose asset never reaches its threshold stands aside.",
  `- Regime: 180-day window, refit every ${refitEveryBars} bars, ${restarts} seeded restart(s) per refit, warm-started from the`,
  "  previous fit (the service uses 10 restarts; fewer keep the run short). Flow signals DEAD (no flow data bundled).",
  `- Money: 10,000 USD per asset, 1 % risk per trade, fees ${DEFAULT_COSTS.feeRate * 100} % per fill, slippage ${DEFAULT_COSTS.slippageRate * 100} % on market fills, LONG only.`,
  "  Liquidity UNKNOWN (no order book in replay), SOL network health UNKNOWN.",
  "- Spans (DECISIONS 7, \"Evaluation protocol\"): rules are chosen on data up to 2022-12-31, 2023-01-01 onward is held",
  "  out; each is reported apart (a trade belongs to the span it was entered in) beside the whole range.",
  "- Benchmarks over each span's own bars: buy & hold (first open → last close, costs on) and the same scaled by the",
  "  trader's capital exposure; random entry = an entry at every bar's open with the trader's exits, sizing and costs",
  `  ("every entry" win rate / profit factor: the exits' no-skill baseline), and ${RANDOM_ENTRY_DRAWS} seeded draws (seed ${RANDOM_ENTRY_SEED}) of`,
  "  as many such entries as the trader made, reported as mean [5th, 95th percentile].",
  "- Trades are `synthetic`: they are never written to the ledger and never count in published stats.",
  "",
  "## Results",
  "",
  "| asset | span | trades | win % | profit factor | expectancy USD / % | return % | max DD % | Sharpe | exposure % | buy & hold % / scaled % | random entry: win % / PF (every entry) | random PF, same trade count | random expectancy %, same trade count | against random entry |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ...rows,
  "",
  "| asset | exit reasons (whole range) | open at end |",
  "|---|---|---|",
  ...reasons,
  "",
  "## Is there an edge?",
  "",
  `${totalTrades} trades in all. Per span, the trader's expectancy against the 90 % band of random entry with its exits:`,
  "",
  ...verdicts.map((v) => `- ${v}`),
  "",
  "\"Better\" needs an expectancy (in % of position cost) above the band's 95th percentile over at least 30 trades; anything else is no evidence of",
  "an edge. A trader that stands aside made no trade: no entry passed its gates.",
  "",
].join("\n");

writeReport(out, md);
