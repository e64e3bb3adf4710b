import { parseArgs } from "node:util";
import { z } from "zod";
import { loadConfig } from "../../config/env.js";
import { ReplayMarketFeed } from "../../feeds/replay/replay-feed.js";
import { ASSETS, type Asset } from "../../domain/signals/signal-keys.js";
import { runEngineBacktest, type EngineBacktestResult } from "../../backtest/engine-backtest.js";
import { backtestSpans } from "../../backtest/backtest-performance.js";
import { backtestWindows, type BacktestWindow } from "../../backtest/backtest-windows.js";
import { DEFAULT_COSTS } from "../../domain/ghost/costs.js";
import type { CliCommand } from "../io.js";
import { fail, isoInstant, refused } from "../args.js";

export const backtestUsage = "usage: backtest --asset <BTC|ETH|SOL|TAO|all> [--from ISO] [--to ISO] [--json]";

const backtestArgs = z.object({
  asset: z.enum([...ASSETS, "all"]),
  from: isoInstant.optional(),
  to: isoInstant.optional(),
  json: z.boolean().default(false),
});


const cell = (x: number | null, digits = 2): string => (x === null ? "n/a" : x.toFixed(digits));
const iso = (t: number): string => new Date(t).toISOString();
const windowText = (w: BacktestWindow): string => `${iso(w.from)} → ${iso(w.to)}`;

/**
 * Per asset, the whole range and each span of the evaluation protocol (to 2022-12-31, from
 * 2023-01-01; DECISIONS 7) with freqtrade's figures and both benchmarks (docs/evaluation.md).
 *
 * `backtest --asset <A|all> [--from ISO] [--to ISO] [--json]`: the Ghost Traders over the bundled
 * history with the real engines (runEngineBacktest). It opens no store at all: backtest trades are
 * synthetic and never reach the ledger or the published track record (DECISIONS 1).
 */
export const backtestCommand: CliCommand = async (args, io) => {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args, options: { asset: { type: "string" }, from: { type: "string" }, to: { type: "string" }, json: { type: "boolean" } } }));
  } catch (err) {
    return fail(io, `${backtestUsage}\n  ${err instanceof Error ? err.message : String(err)}`);
  }
  const asset = typeof values.asset === "string" && values.asset !== "all" ? values.asset.toUpperCase() : values.asset;
  const parsed = backtestArgs.safeParse({ ...values, asset });
  if (!parsed.success) return refused(io, backtestUsage, parsed.error);
  const a = parsed.data;
  const assets: readonly Asset[] = a.asset === "all" ? ASSETS : [a.asset];
  const feed = await ReplayMarketFeed.load(loadConfig().MARKET_DATA_DIR);
  if (a.from !== undefined && a.to !== undefined && !(a.from < a.to)) return fail(io, `${backtestUsage}\n  from: must be before to`);
  const windows = backtestWindows(feed, assets, a.from, a.to, Date.now());
  // A --from after the data's end, with no --to, ends where the data ends: no history, not a typo.
  if (windows.some((w) => !(w.from < w.to))) return fail(io, `no ${assets.join(", ")} history from ${windows.map((w) => new Date(w.from).toISOString()).join("; ")} on`);
  // A window outside the bundled history is a mistake to say, not an empty table with exit 0.
  const hasBars = (w: BacktestWindow, asset: Asset): boolean => (feed.candles(asset, "1h", w.to - 1, 1)[0]?.t ?? -Infinity) >= w.from;
  if (!windows.some((w) => w.assets.some((asset) => hasBars(w, asset)))) {
    return fail(io, `no ${assets.join(", ")} history in ${windows.map(windowText).join("; ")}`);
  }

  // One engine run per window, one at a time (each is CPU-bound).
  const runs: { window: BacktestWindow; result: EngineBacktestResult }[] = [];
  for (const w of windows) runs.push({ window: w, result: await runEngineBacktest(feed, { assets: w.assets, from: w.from, to: w.to }) });
  const rows = runs.flatMap(({ window: w, result }) =>
    result.reports.flatMap((r) =>
      backtestSpans(feed, r, w.from, w.to).map(({ span, performance: p }) => ({ asset: r.asset, span, bars: r.bars, openAtEnd: r.openAtEnd, ...p })),
    ),
  );
  if (a.json) {
    const totalMs = runs.reduce((s, r) => s + r.result.timings.totalMs, 0);
    io.stdout.write(
      JSON.stringify({
        // The envelope of the windows; `windows` gives each asset's own (they differ only by default).
        from: iso(Math.min(...windows.map((w) => w.from))),
        to: iso(Math.max(...windows.map((w) => w.to))),
        windows: windows.map((w) => ({ assets: w.assets, from: iso(w.from), to: iso(w.to) })),
        synthetic: true,
        costs: DEFAULT_COSTS,
        assets: rows,
        totalMs: Math.round(totalMs),
      }) + "\n",
    );
    return 0;
  }
  // The trader's return beside buy & hold scaled to its exposure, and its expectancy in % of
  // position cost beside random entry's band of the same (the figure sizing does not move).
  const header = ["asset", "span", "trades", "win %", "PF", "exp. USD", "exp. %", "return %", "max DD %", "sharpe", "exposure %", "B&H scaled %", "random win %", "random PF (90 %)", "random exp. % (90 %)"];
  const table = rows.map((r) => {
    const re = r.benchmarks.randomEntry;
    const m = re?.matched ?? null;
    return [
      r.asset,
      r.span,
      String(r.trades),
      cell(r.winRatePct, 1),
      cell(r.profitFactor),
      cell(r.expectancyUsd),
      cell(r.expectancyPct, 3),
      cell(r.returnPct, 3),
      cell(r.maxRelativeDrawdown.pct),
      cell(r.sharpe),
      cell(r.exposurePct),
      cell(r.benchmarks.buyAndHold?.scaledReturnPct ?? null, 3),
      cell(re?.everyEntry.winRatePct ?? null, 1),
      m?.profitFactor ? `${cell(m.profitFactor.mean)} [${cell(m.profitFactor.p5)}, ${cell(m.profitFactor.p95)}]` : "n/a",
      m ? `${cell(m.expectancyPct.mean, 3)} [${cell(m.expectancyPct.p5, 3)}, ${cell(m.expectancyPct.p95, 3)}]` : "n/a",
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => (row[i] ?? "").length)));
  const line = (cols: readonly string[]) => cols.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
  const asides = rows.filter((r) => r.standingAside && r.span === "whole").map((r) => `${r.asset}: ${r.note ?? ""}`);
  io.stdout.write(
    [
      `Backtest ${windows.map((w) => (windows.length === 1 ? windowText(w) : `${w.assets.join(", ")} ${windowText(w)}`)).join("; ")} (synthetic trades, nothing stored; fees ${DEFAULT_COSTS.feeRate * 100} % per fill, slippage ${DEFAULT_COSTS.slippageRate * 100} % on market fills)`,
      line(header),
      ...table.map(line),
      ...asides,
      "",
    ].join("\n"),
  );
  return 0;
};
