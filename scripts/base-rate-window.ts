/**
 * The base-rate window experiment of docs/evaluation.md ("Tried on the in-sample span and not
 * adopted", base-rate window): every map on record is the base rate (no window passed the skill
 * test), so what sets the published confidences is how the base rate is estimated: the window's
 * up-share over `windowDays`, shrunk toward 0.5 with `baseRatePriorOutcomes` of prior weight.
 * TAO's base rate drifted faster than a one-year window follows; this asks whether the in-sample
 * span already preferred a shorter or longer window, or less or more shrinkage.
 *
 *   npx tsx scripts/base-rate-window.ts [--held-out]
 *
 * The adoption rule, fixed before the first run (committed with this script, 2026-11-26):
 * a setting is adopted only if its in-sample Brier (24 h, directional calls before 2023) is lower
 * than the current setting's (365 days, one year of prior) on every one of the five in-sample
 * streams (BTC, ETH and SOL verdicts; BTC and SOL councils); among several, the one with the
 * lowest mean in-sample Brier. The held-out figures are printed only with --held-out, after the
 * decision, for the record.
 */
import { ReplayMarketFeed } from "../src/feeds/replay/replay-feed.js";
import { calibratedStream, pricePath, type RulingStream } from "../src/application/ruling-streams.js";
import { withOutcomes } from "../src/domain/evaluation/stream-outcomes.js";
import { DEFAULT_CALIBRATION, rulingSide } from "../src/domain/calibration/calibration-map.js";
import { HELD_OUT_FROM } from "../src/domain/evaluation/verdict-evaluation.js";

const HOURS_PER_DAY = 24;
const WINDOWS_DAYS = [90, 180, 365, 730, 1095];
const PRIORS_DAYS = [0, 30, 90, 365, 730];
const IN_SAMPLE = ["verdict:BTC", "verdict:ETH", "verdict:SOL", "council:BTC", "council:SOL"];
const showHeldOut = process.argv.includes("--held-out");

const feed = await ReplayMarketFeed.load("market-data");
const streams: RulingStream[] = [
  { kind: "verdict", asset: "BTC" }, { kind: "verdict", asset: "ETH" }, { kind: "verdict", asset: "SOL" },
  { kind: "council", asset: "BTC" }, { kind: "council", asset: "SOL" },
  { kind: "verdict", asset: "TAO" }, { kind: "council", asset: "TAO" },
];

interface Graded { readonly c: number; readonly hit: boolean; readonly at: number }
const brier = (xs: readonly Graded[]) => xs.reduce((a, x) => a + (x.c - (x.hit ? 1 : 0)) ** 2, 0) / xs.length;
/** Mean absolute gap between mean confidence and hit rate over confidence quintiles (issue 16's figure). */
const quintileGap = (xs: readonly Graded[]) => {
  const sorted = [...xs].sort((a, b) => a.c - b.c);
  let total = 0;
  for (let i = 0; i < 5; i++) {
    const part = sorted.slice(Math.floor((i * sorted.length) / 5), Math.floor(((i + 1) * sorted.length) / 5));
    total += Math.abs(part.reduce((a, x) => a + x.c, 0) / part.length - part.filter((x) => x.hit).length / part.length);
  }
  return total / 5;
};

type Setting = { windowDays: number; priorDays: number };
const settings: Setting[] = WINDOWS_DAYS.flatMap((windowDays) => PRIORS_DAYS.map((priorDays) => ({ windowDays, priorDays })));
const key = (s: Setting) => `w${s.windowDays}/p${s.priorDays}`;
const inSample = new Map<string, Map<string, number>>();
for (const stream of streams) {
  const id = `${stream.kind}:${stream.asset}`;
  const prices = pricePath(feed, stream.asset, Number.MAX_SAFE_INTEGER);
  const from = prices.timeAt(0), to = prices.timeAt(prices.length - 1);
  const line = [id];
  for (const s of settings) {
    const run = await calibratedStream(feed, stream, from, to, {
      settings: { ...DEFAULT_CALIBRATION, windowDays: s.windowDays, baseRatePriorOutcomes: s.priorDays * HOURS_PER_DAY },
    });
    const graded: Graded[] = [];
    for (const r of withOutcomes(run.rows, prices, to)) {
      const side = rulingSide(r.ruling), f = r.forward.h24;
      if (side === "none" || f === null || f === undefined || f === 0) continue;
      graded.push({ c: r.confidence, hit: side === "up" ? f > 0 : f < 0, at: r.at });
    }
    const before = graded.filter((g) => g.at < HELD_OUT_FROM), after = graded.filter((g) => g.at >= HELD_OUT_FROM);
    if (before.length > 0) {
      const row = inSample.get(key(s)) ?? new Map<string, number>();
      row.set(id, brier(before));
      inSample.set(key(s), row);
    }
    line.push(`${key(s)} in ${before.length ? `${brier(before).toFixed(5)}/${quintileGap(before).toFixed(3)}` : "-"}` +
      (showHeldOut && after.length ? ` out ${brier(after).toFixed(5)}/${quintileGap(after).toFixed(3)}` : ""));
  }
  console.log(line.join(" | "));
}

const current = inSample.get(key({ windowDays: 365, priorDays: 365 }));
if (current === undefined) throw new Error("the current setting was not run");
const better = [...inSample.entries()].filter(([k, row]) =>
  k !== key({ windowDays: 365, priorDays: 365 }) && IN_SAMPLE.every((s) => (row.get(s) ?? Infinity) < (current.get(s) ?? -Infinity)));
const meanOf = (row: Map<string, number>) => IN_SAMPLE.reduce((a, s) => a + (row.get(s) ?? 0), 0) / IN_SAMPLE.length;
better.sort((a, b) => meanOf(a[1]) - meanOf(b[1]));
console.log(`current w365/p365 mean in-sample Brier ${meanOf(current).toFixed(5)}`);
console.log(better.length === 0 ? "rule: no setting is lower on all five in-sample streams; nothing adopted"
  : `rule: adopt ${better[0]![0]} (mean ${meanOf(better[0]![1]).toFixed(5)}); also lower on all five: ${better.slice(1).map(([k]) => k).join(", ") || "none"}`);
