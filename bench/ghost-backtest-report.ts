import { runBacktest, type BacktestReport } from "../src/domain/ghost/backtest.js";
import { StandInInputs } from "../test/support/ghost-stand-in-inputs.js";
import { ASSETS } from "../src/domain/signals/signal-keys.js";
import { between, loadHourlyCandles } from "../test/support/ghost-candles.js";

/**
 * Prints the Ghost Trader backtest over the bundled hourly history as a markdown table (or JSON
 * with --json): `npx tsx bench/ghost-backtest-report.ts [--from ISO] [--to ISO] [--json]`.
 * Inputs are the technical stand-in (test/support/ghost-stand-in-inputs.ts) until the judiciary,
 * council and regime engines can drive the backtest; the table says so.
 */
const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? (args[i + 1] as string) : fallback;
};
const from = opt("--from", "2000-01-01T00:00:00Z");
const to = opt("--to", "2100-01-01T00:00:00Z");

const reports: BacktestReport[] = ASSETS.map((asset) => {
  const s = new StandInInputs(asset);
  return runBacktest(asset, between(loadHourlyCandles(asset), from, to).map((c) => s.next(c)));
});

if (args.includes("--json")) {
  const slim = reports.map(({ trades: _t, finalState: _s, ...r }) => ({
    ...r,
    exitReasons: count(reports.find((x) => x.asset === r.asset)?.trades.map((t) => t.exitReason) ?? []),
  }));
  process.stdout.write(JSON.stringify(slim, null, 2) + "\n");
} else {
  const rows = reports.map((r) => {
    const p = r.performance;
    return [
      r.asset,
      `${r.from?.slice(0, 10)} → ${r.to?.slice(0, 10)}`,
      r.bars,
      r.stats.totalTrades,
      r.stats.winRate,
      r.stats.totalPnl,
      p.returnPct,
      p.profitFactor ?? "n/a",
      p.expectancyUsd,
      `${p.maxDrawdownUsd} (${p.maxDrawdownPct} %)`,
      p.sharpe ?? "n/a",
      p.sortino ?? "n/a",
      p.exposurePct,
      Math.round(r.stats.avgHoldMinutes / 6) / 10,
      r.buyAndHoldPct,
    ].join(" | ");
  });
  process.stdout.write(
    [
      "Inputs: technical stand-in (not the judiciary/council engines); 10,000 USD per asset, 1 % risk,",
      "fees 0.10 %/fill, slippage 0.05 % on market fills; LONG only.",
      "Exit-mechanics check only, with older figure definitions (exposure from first entry to last exit,",
      "Sharpe over those days, buy & hold close to close without costs): not the published figures, which",
      "are `npm run --silent cli -- backtest` and GET /v1/ghost/performance (docs/evaluation.md).",
      "",
      "| asset | span | bars | trades | win % | P&L USD | return % | PF | expectancy USD | max DD USD | Sharpe | Sortino | exposure % | avg hold h | buy & hold % |",
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
      ...rows.map((r) => `| ${r} |`),
      "",
    ].join("\n"),
  );
}

function count(xs: readonly string[]): Record<string, number> {
  const m: Record<string, number> = {};
  for (const x of xs) m[x] = (m[x] ?? 0) + 1;
  return m;
}
