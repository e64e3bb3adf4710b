import { writeReport } from "./write-report.js";
import { ReplayMarketFeed } from "../src/feeds/replay/replay-feed.js";
import type { BacktestReport } from "../src/domain/ghost/backtest.js";
import { ASSETS, type Asset } from "../src/domain/signals/signal-keys.js";
import { BACKTEST_REGIME_DEFAULTS, runEngineBacktest } from "../src/services/engine-backtest.js";

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

const fmt = (x: number | null, digits = 2): string => (x === null ? "n/a" : x.toFixed(digits));
const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

function exitReasons(r: BacktestReport): string {
  const m = new Map<string, number>();
  for (const t of r.trades) m.set(t.exitReason, (m.get(t.exitReason) ?? 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(", ") || "none";
}

function edge(r: BacktestReport): string {
  const p = r.performance;
  if (p.trades < 30) return `no: ${p.trades} trades is too few to tell`;
  if ((p.profitFactor ?? 0) > 1.2 && p.expectancyUsd > 0) return "some: profit factor above 1.2";
  return `no: profit factor ${fmt(p.profitFactor)}, expectancy ${p.expectancyUsd} USD`;
}

const rows = result.reports.map((r) => {
  const p = r.performance;
  return `| ${r.asset} | ${r.from?.slice(0, 10) ?? "n/a"} → ${r.to?.slice(0, 10) ?? "n/a"} | ${r.bars} | ${r.stats.totalTrades} | ${r.stats.winRate} | ${r.stats.totalPnl} | ${fmt(p.profitFactor)} | ${p.maxDrawdownUsd} (${p.maxDrawdownPct} %) | ${fmt(p.sharpe)} | ${r.buyAndHoldPct} |`;
});
const reasons = result.reports.map((r) => `| ${r.asset} | ${exitReasons(r)} | ${r.openAtEnd ? "yes" : "no"} | ${edge(r)} |`);
const totalTrades = result.reports.reduce((n, r) => n + r.stats.totalTrades, 0);
const anyEdge = result.reports.some((r) => edge(r).startsWith("some"));

const md = [
  "# Ghost Traders: backtest track record (real engines)",
  "",
  `Generated ${new Date().toISOString().slice(0, 10)} by \`${command}\` (load ${s(loadMs)}, regime ${s(result.timings.regimeMs)}, total ${s(result.timings.totalMs)}).`,
  "Re-run it to regenerate this file; `--out -` prints instead of writing.",
  "",
  "## How it is computed",
  "",
  "- Data: the bundled history in market-data/ through the replay feed; every read is \"as of\" the bar close.",
  "- Per closed hourly bar: the asset's Judiciary verdict (`judiciaryInputAt` + `evaluateJudiciary`, multipliers 1.0),",
  "  the judiciary-mode council session for BTC, SOL and TAO (`deliberate` without an advisor; on a BLACKOUT day the",
  "  previous session stays current) and the council gate by `councilGateDecision` (judiciary-mode sessions hand the",
  "  gate to the asset's verdict), the BTC regime from `walkForward` and the 1 h indicators of the feed — the inputs the",
  "  service's Ghost Traders read, run through the same `stepGhost`.",
  `- Regime: 180-day window, refit every ${refitEveryBars} bars, ${restarts} seeded restart(s) per refit, warm-started from the`,
  "  previous fit (the service uses 10 restarts; fewer keep the run short). Flow signals DEAD (no flow data bundled).",
  "- Money: 10,000 USD per asset, 1 % risk per trade, fees 0.10 % per fill, slippage 0.05 % on market fills, LONG only.",
  "  Liquidity UNKNOWN (no order book in replay), SOL network health UNKNOWN.",
  "- Trades are `synthetic`: they are never written to the ledger and never count in published stats.",
  "",
  "## Results",
  "",
  "| asset | span | bars | trades | win % | P&L USD | profit factor | max DD USD (%) | Sharpe | buy & hold % |",
  "|---|---|---|---|---|---|---|---|---|---|",
  ...rows,
  "",
  "| asset | exit reasons | open at end | edge? |",
  "|---|---|---|---|",
  ...reasons,
  "",
  "## Is there an edge?",
  "",
  anyEdge
    ? "At least one asset shows a profit factor above 1.2 over a meaningful number of trades; see the table for which."
    : `No. With judiciary-mode councils the engines show no edge over the bundled history: ${totalTrades} trades in all, and` +
      " none of the assets has a profit factor above 1.2 over at least 30 trades. The Judiciary Engine rarely rules bullish with" +
      " confidence at the entry threshold (BTC 0.65, SOL 0.65, TAO 0.72), so the traders stand aside most of the time and" +
      " the results are far from buy & hold in rising markets.",
  "",
].join("\n");

writeReport(out, md);
