import { writeReport } from "./write-report.js";
import { ReplayMarketFeed } from "../src/feeds/replay/replay-feed.js";
import { deliberate } from "../src/domain/council/deliberate.js";
import type { CouncilAsset } from "../src/domain/council/council-types.js";
import { TAO_RULINGS, type TaoRuling } from "../src/domain/market/vocabulary.js";
import { councilInputAt } from "../src/application/judiciary-inputs.js";
import { regimeTimeline } from "../src/backtest/engine-backtest.js";
import { councilSessionId } from "../src/domain/council/session-id.js";

/**
 * Issue 7: runs the councils in judiciary mode (no language model) over the bundled history and
 * reports how often each ruling is given and what the asset did over the next 24 hours.
 *
 *   npx tsx scripts/judiciary-replay-report.ts [--step-hours 4] [--assets BTC,SOL,TAO] [--out docs/judiciary-replay.md | --out -]
 *
 * Sessions are deliberated exactly as the CouncilActor does (councilInputAt + deliberate with no
 * advisor); the regime is the walk-forward BTC regime (monthly refits, one restart, for speed).
 * Nothing is stored.
 */
const HOUR = 3_600_000;
const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const stepHours = Number(opt("--step-hours") ?? 4);
const COUNCILS: readonly CouncilAsset[] = ["BTC", "SOL", "TAO"];
const assets = (opt("--assets")?.split(",") ?? [...COUNCILS]).filter((a): a is CouncilAsset => (COUNCILS as readonly string[]).includes(a));
const out = opt("--out") ?? "docs/judiciary-replay.md";
/** Bars of history before the first session, so EMA-200 and friends are defined. */
const WARMUP_BARS = 200;

interface Tally {
  n: number;
  sum: number;
  hits: number;
}

const t0 = performance.now();
const feed = await ReplayMarketFeed.load("market-data");
const btcBars = feed.candles("BTC", "1h", Number.MAX_SAFE_INTEGER, 1_000_000);
const regimes = regimeTimeline(feed, btcBars[0]?.t ?? 0, (btcBars.at(-1)?.t ?? 0) + HOUR, { refitEveryBars: 720, restarts: 1 });
const regimeMs = performance.now() - t0;

const sections: string[] = [];
const overview: string[] = [];
for (const asset of assets) {
  const bars = feed.candles(asset, "1h", Number.MAX_SAFE_INTEGER, 1_000_000);
  const closeAt = new Map<number, number>();
  for (const b of bars) closeAt.set(b.t + HOUR, b.c);
  const first = bars[WARMUP_BARS];
  const last = bars.at(-1);
  if (first === undefined || last === undefined) continue;
  const start = Math.ceil((first.t + HOUR) / (stepHours * HOUR)) * stepHours * HOUR;
  const end = last.t + HOUR - 24 * HOUR;
  const tallies = new Map<TaoRuling, Tally>();
  let sessions = 0;
  let paused = 0;
  let missingPrice = 0;
  let pooled: Tally = { n: 0, sum: 0, hits: 0 };
  for (let at = start; at <= end; at += stepHours * HOUR) {
    const regimeBar = regimes.get(at - HOUR);
    const outcome = await deliberate(councilInputAt(feed, asset, at, regimeBar?.regime ?? null), { advisor: null, newId: () => councilSessionId(asset, at) });
    if (outcome.kind === "paused") {
      paused++;
      continue;
    }
    sessions++;
    const now = closeAt.get(at);
    const later = closeAt.get(at + 24 * HOUR);
    if (now === undefined || later === undefined) {
      missingPrice++;
      continue;
    }
    const ret = (later / now - 1) * 100;
    const ruling = outcome.session.ruling;
    const t = tallies.get(ruling) ?? { n: 0, sum: 0, hits: 0 };
    // A hit: the price moved the way the ruling leans (HOLD: within ±1 %).
    const hit = bullish(ruling) ? ret > 0 : bearish(ruling) ? ret < 0 : Math.abs(ret) <= 1;
    t.n++;
    t.sum += ret;
    if (hit) t.hits++;
    tallies.set(ruling, t);
    pooled = { n: pooled.n + 1, sum: pooled.sum + ret, hits: pooled.hits };
  }
  const baseline = pooled.n === 0 ? 0 : pooled.sum / pooled.n;
  // The benchmark of every ruling: what the asset did after any session (issue 16).
  const rows = TAO_RULINGS.filter((r) => tallies.has(r)).map((r) => {
    const t = tallies.get(r) as Tally;
    const mean = t.sum / t.n;
    return `| ${r} | ${t.n} | ${((100 * t.n) / pooled.n).toFixed(1)} | ${mean.toFixed(2)} | ${(mean - baseline >= 0 ? "+" : "") + (mean - baseline).toFixed(2)} | ${((100 * t.hits) / t.n).toFixed(1)} |`;
  });
  overview.push(`| ${asset} | ${new Date(start).toISOString().slice(0, 10)} → ${new Date(end).toISOString().slice(0, 10)} | ${sessions} | ${paused} | ${baseline.toFixed(2)} |`);
  sections.push(
    [
      `### ${asset}`,
      "",
      "| ruling | sessions | share % | mean next-24 h return % | against all sessions (pp) | hit rate % |",
      "|---|---|---|---|---|---|",
      ...rows,
      "",
      `All sessions: mean next-24 h return ${baseline.toFixed(2)} %${missingPrice > 0 ? `; ${missingPrice} sessions without a price 24 h later were left out` : ""}.`,
      "",
    ].join("\n"),
  );
}
const totalMs = performance.now() - t0;
const command = `npx tsx scripts/judiciary-replay-report.ts ${args.filter((a, i) => a !== "--out" && args[i - 1] !== "--out").join(" ")}`.trim();

const md = [
  "# Councils in judiciary mode over the bundled history",
  "",
  `Generated ${new Date().toISOString().slice(0, 10)} by \`${command}\` (regime ${(regimeMs / 1000).toFixed(1)} s, total ${(totalMs / 1000).toFixed(1)} s).`,
  "Re-run it to regenerate this file; `--out -` prints instead of writing.",
  "",
  "Each ruling is set against the benchmark of all sessions (the unconditional mean). Block-bootstrap intervals of",
  "that excess, the two spans of the evaluation protocol apart, rank IC per year and the calibration of the published",
  "confidence are in [evaluation-figures.md](evaluation-figures.md) (`npx tsx scripts/evidence-report.ts`): no",
  "council's ruling carries measurable information about the next 24 h.",
  "",
  "## Method",
  "",
  `- A council session every ${stepHours} market hours (on the hour grid) for ${assets.join(", ")}, from 200 hourly bars after the`,
  "  asset's first bar to 24 h before its last. Each session is built as the CouncilActor builds it (`councilInputAt` over the",
  "  replay feed as of the session time) and deliberated by `deliberate` with no advisor: judiciary mode, six rule votes.",
  "- Regime input: the BTC walk-forward regime (`walkForward`, 180-day window, monthly refits, one restart; the service",
  "  refits weekly with 10 restarts) as published at the session time. Flow signals are DEAD (none bundled).",
  "- BLACKOUT days (a TIER1 macro release) pause every council: no session, counted as paused.",
  "- Next-24 h return: the asset's hourly close 24 h after the session over its close at the session, in %.",
  "  Hit: bullish rulings (STRONG_BUY, BUY, ACCUMULATE) when the return is positive, bearish ones (REDUCE, SELL,",
  "  STRONG_SELL, AVOID) when it is negative, HOLD when it stays within ±1 %.",
  "",
  "## Overview",
  "",
  "| asset | span | sessions | paused (BLACKOUT) | mean next-24 h return % (all sessions) |",
  "|---|---|---|---|---|",
  ...overview,
  "",
  "## Rulings and what followed",
  "",
  ...sections,
  "Reading: a ruling carries information when its mean return differs clearly from the all-sessions mean and its",
  "hit rate is well above 50 %. The Chief Judge's own judiciary-mode figure is capped at 0.47; what the service publishes",
  "is the calibrated probability of the ruling's direction (docs/evaluation.md), and that figure is what the Ghost",
  "Traders' council gate reads, in this mode as in council mode.",
  "",
].join("\n");

writeReport(out, md);

function bullish(r: TaoRuling): boolean {
  return r === "STRONG_BUY" || r === "BUY" || r === "ACCUMULATE";
}

function bearish(r: TaoRuling): boolean {
  return r === "REDUCE" || r === "SELL" || r === "STRONG_SELL" || r === "AVOID";
}
