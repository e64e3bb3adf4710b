import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ReplayMarketFeed } from "../src/feeds/replay/replay-feed.js";
import { ASSETS } from "../src/domain/signals/signal-keys.js";
import { runEngineBacktest } from "../src/backtest/engine-backtest.js";
import { openStore } from "../src/store/open-store.js";
import { result, type BenchResult } from "./result.js";

/**
 * Issue 8: a two-year backtest of all four assets driven by the real engines (judiciary verdicts,
 * judiciary-mode councils, walk-forward regimes) with its closed trades written to a SQLite ghost
 * ledger (a throwaway file, never the service's store); target ≤ 30 s. Baseline, same run: the
 * regime timeline alone, the part shared by every asset.
 */
const FROM = Date.parse("2024-01-01T00:00:00Z");
const TO = Date.parse("2026-01-01T00:00:00Z");

export async function run(): Promise<BenchResult[]> {
  const feed = await ReplayMarketFeed.load("market-data");
  const dir = mkdtempSync(join(tmpdir(), "engine-backtest-"));
  const store = await openStore(`sqlite:${join(dir, "ledger.sqlite")}`);
  try {
    const t0 = performance.now();
    const { reports, timings } = await runEngineBacktest(feed, { assets: ASSETS, from: FROM, to: TO });
    for (const r of reports) await store.ghostLedger.saveClosed(r.trades);
    const totalMs = performance.now() - t0;
    const trades = reports.reduce((n, r) => n + r.trades.length, 0);
    const stored = (await store.ghostLedger.closed()).length;
    return [
      result(
        `ghost engine backtest, 4 assets, 2024-2025, judiciary-mode councils, trades written to SQLite (${trades} trades; baseline: regime timeline alone)`,
        totalMs,
        "ms",
        "<= 30000 ms (issue 8)",
        totalMs <= 30_000 && stored === trades,
        timings.regimeMs,
      ),
    ];
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
