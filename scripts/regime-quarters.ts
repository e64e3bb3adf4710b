import { loadHourlyCandles } from "../test/support/csv-loader.js";
import { walkForward } from "../src/domain/regime/walk-forward.js";
import type { Regime } from "../src/domain/market/vocabulary.js";

/**
 * The BTC regime table of docs/regime.md: the walk-forward regime (what the service would have
 * published at each hour) summarised per calendar quarter, with BTC's open and close.
 *
 *   npx tsx scripts/regime-quarters.ts [refitEveryBars=720] [restarts=3]   (about 45 s with the defaults)
 */
const refitEveryBars = Number(process.argv[2] ?? 720);
const restarts = Number(process.argv[3] ?? 3);
const candles = loadHourlyCandles("btc_usdt_1h_binance.csv.gz");
const t0 = performance.now();
const points = walkForward(candles, { refitEveryBars, restarts });
process.stderr.write(`walk-forward ${points.length} bars in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);

const quarterOf = (t: number): string => {
  const d = new Date(t);
  return `${d.getUTCFullYear()}-Q${Math.floor(d.getUTCMonth() / 3) + 1}`;
};

const hoursByQuarter = new Map<string, Map<Regime, number>>();
for (const p of points) {
  const q = quarterOf(p.t);
  const m = hoursByQuarter.get(q) ?? new Map<Regime, number>();
  m.set(p.regime, (m.get(p.regime) ?? 0) + 1);
  hoursByQuarter.set(q, m);
}
const openClose = new Map<string, [number, number]>();
for (const c of candles) {
  const q = quarterOf(c.t);
  const e = openClose.get(q);
  openClose.set(q, e ? [e[0], c.c] : [c.o, c.c]);
}

const SHORT: Record<Regime, string> = {
  BULL_TRENDING: "BULL",
  BEAR_TRENDING: "BEAR",
  HIGH_VOLATILITY: "HIVOL",
  LOW_VOLATILITY: "LOVOL",
  ACCUMULATION: "ACC",
  DISTRIBUTION: "DIST",
  RISK_ON: "RISK_ON",
  WHALE_ACCUMULATION: "WHALE",
};
const lines = ["| quarter | BTC open → close | change | regimes (share of hours) |", "|---|---|---|---|"];
for (const [q, m] of hoursByQuarter) {
  const total = [...m.values()].reduce((a, b) => a + b, 0);
  const parts = [...m]
    .sort((a, b) => b[1] - a[1])
    .map(([r, n]) => `${SHORT[r]} ${Math.round((100 * n) / total)}%`)
    .join(", ");
  const oc = openClose.get(q);
  if (oc === undefined) continue;
  const [o, c] = oc;
  lines.push(`| ${q} | ${Math.round(o)} → ${Math.round(c)} | ${((c / o - 1) * 100).toFixed(0)}% | ${parts} |`);
}
process.stdout.write(lines.join("\n") + "\n");
