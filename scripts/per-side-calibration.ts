/**
 * The per-direction calibration experiment of docs/evaluation.md ("Tried on the in-sample span
 * and not adopted, 2026-11-26"): for each call, the trailing window's hit rate of calls on the
 * same side, shrunk toward the published confidence with a prior of k days of hourly outcomes.
 * Prints the Brier score and quintile gap per stream and k, in-sample only unless --held-out:
 *
 *   npx tsx scripts/per-side-calibration.ts [--held-out]
 *
 * The adoption rule (lower in-sample Brier on all five in-sample streams) was fixed before it ran.
 */
import { ReplayMarketFeed } from "../src/feeds/replay/replay-feed.js";
import { calibratedStream, pricePath, type RulingStream } from "../src/application/ruling-streams.js";
import { withOutcomes } from "../src/domain/evaluation/stream-outcomes.js";
import { rulingSide } from "../src/domain/calibration/calibration-map.js";
import { HELD_OUT_FROM } from "../src/domain/evaluation/verdict-evaluation.js";

const DAY = 86_400_000, HOUR = 3_600_000;
const feed = await ReplayMarketFeed.load("market-data");
const streams: RulingStream[] = [
  { kind: "verdict", asset: "BTC" }, { kind: "verdict", asset: "ETH" }, { kind: "verdict", asset: "SOL" },
  { kind: "council", asset: "BTC" }, { kind: "council", asset: "SOL" },
  { kind: "verdict", asset: "TAO" }, { kind: "council", asset: "TAO" },
];
const KS = [0, 24 * 30, 24 * 90, 24 * 180, 24 * 365, 24 * 730];
const showHeldOut = process.argv.includes("--held-out");
for (const stream of streams) {
  const prices = pricePath(feed, stream.asset, Number.MAX_SAFE_INTEGER);
  const to = prices.timeAt(prices.length - 1);
  const run = await calibratedStream(feed, stream, prices.timeAt(0), to);
  const rows = withOutcomes(run.rows, prices, to)
    .map((r) => ({ at: r.at, side: rulingSide(r.ruling), c: r.confidence, f: r.forward.h24 }))
    .filter((r) => r.side !== "none");
  // walk-forward per-side counts: for a row at t, fit at day start D: matured rows with at+24h <= D, at >= D-365d
  const preds: Record<number, { c: number; hit: boolean; at: number }[]> = {};
  for (const k of KS) preds[k] = [];
  let lo = 0, hi = 0; // window [lo, hi) over rows, matured
  const cnt = { up: { n: 0, h: 0 }, down: { n: 0, h: 0 } };
  const hitOf = (r: (typeof rows)[number]) => (r.f === null || r.f === 0 ? null : r.side === "up" ? r.f > 0 : r.f < 0);
  let curDay = -1;
  for (const r of rows) {
    const D = Math.floor(r.at / DAY) * DAY;
    if (D !== curDay) {
      curDay = D;
      while (hi < rows.length && (rows[hi]!.at + 24 * HOUR) <= D) {
        const x = rows[hi]!; const h = hitOf(x);
        if (h !== null) { const s = cnt[x.side as "up" | "down"]; s.n++; if (h) s.h++; }
        hi++;
      }
      while (lo < hi && rows[lo]!.at < D - 365 * DAY) {
        const x = rows[lo]!; const h = hitOf(x);
        if (h !== null) { const s = cnt[x.side as "up" | "down"]; s.n--; if (h) s.h--; }
        lo++;
      }
    }
    const h = hitOf(r);
    if (h === null) continue;
    const s = cnt[r.side as "up" | "down"];
    for (const k of KS) {
      const c = k === 0 ? r.c : (s.h + k * r.c) / (s.n + k);
      preds[k]!.push({ c, hit: h, at: r.at });
    }
  }
  const brier = (xs: { c: number; hit: boolean }[]) => xs.reduce((a, x) => a + (x.c - (x.hit ? 1 : 0)) ** 2, 0) / xs.length;
  const gap = (xs: { c: number; hit: boolean }[]) => {
    const sorted = [...xs].sort((a, b) => a.c - b.c); const q = 5; let g = 0;
    for (let i = 0; i < q; i++) { const part = sorted.slice(Math.floor((i * sorted.length) / q), Math.floor(((i + 1) * sorted.length) / q)); g += Math.abs(part.reduce((a, x) => a + x.c, 0) / part.length - part.filter((x) => x.hit).length / part.length); }
    return g / q;
  };
  const line = [`${stream.kind}:${stream.asset}`];
  for (const k of KS) {
    const inS = preds[k]!.filter((x) => x.at < HELD_OUT_FROM), outS = preds[k]!.filter((x) => x.at >= HELD_OUT_FROM);
    line.push(`k=${k / 24}d in ${inS.length ? brier(inS).toFixed(5) : "-"}/${inS.length ? gap(inS).toFixed(3) : "-"}` + (showHeldOut ? ` out ${brier(outS).toFixed(5)}/${gap(outS).toFixed(3)}` : ""));
  }
  console.log(line.join(" | "));
}
