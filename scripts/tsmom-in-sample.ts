/**
 * Time-series momentum on the in-sample span (docs/evaluation.md, "Tried on the in-sample span
 * and not adopted", time-series momentum as an engine input). Issue 16 welcomes engine changes
 * that rest on documented effects; the best documented one for crypto is time-series momentum
 * over one to four weeks. This asks whether the in-sample span (to 2022-12-31) shows it at the
 * horizon the service's confidence is stated for (24 h), and at 72 h and a week for context.
 *
 *   npx tsx scripts/tsmom-in-sample.ts
 *
 * Signal: the asset's trailing log return over 7, 14 or 28 days, read at 00:00 UTC. Target: the
 * log return over the next H hours. Samples are days whose forward windows do not overlap (a new
 * sample only once the previous one's window has ended), so the t statistics are honest.
 * The adoption rule, fixed before the first run (2026-12-02): the signal becomes a Judiciary
 * input only if, at 24 h, one lookback has a rank IC with t ≥ 2.4 (2 with a Bonferroni margin for
 * the three lookbacks) on each of BTC, ETH and SOL. Nothing after 2022 is read.
 */
import { ReplayMarketFeed } from "../src/feeds/replay/replay-feed.js";
import { pricePath } from "../src/application/ruling-streams.js";
import { spearman } from "../src/domain/evaluation/statistics.js";
import { HELD_OUT_FROM } from "../src/domain/evaluation/verdict-evaluation.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const LOOKBACK_DAYS = [7, 14, 28];
const HORIZONS_HOURS = [24, 72, 168];
const ADOPT_T = 2.4;

const feed = await ReplayMarketFeed.load("market-data");
const passesAt24h = new Map<string, boolean>();
console.log("asset  lookback  horizon  samples  rank IC  t      P(up | momentum > 0)  P(up | momentum < 0)");
for (const asset of ["BTC", "ETH", "SOL"] as const) {
  const path = pricePath(feed, asset, HELD_OUT_FROM);
  const index = new Map<number, number>();
  for (let i = 0; i < path.length; i++) index.set(path.timeAt(i), i);
  for (const lookback of LOOKBACK_DAYS) {
    for (const horizon of HORIZONS_HOURS) {
      const signal: number[] = [];
      const forward: number[] = [];
      let nextFree = -Infinity;
      for (let i = 0; i < path.length; i++) {
        const t = path.timeAt(i);
        if (t % DAY !== 0 || t < nextFree) continue;
        const back = index.get(t - lookback * DAY);
        const ahead = index.get(t + horizon * HOUR);
        if (back === undefined || ahead === undefined) continue;
        signal.push(Math.log(path.closeAt(i) / path.closeAt(back)));
        forward.push(Math.log(path.closeAt(ahead) / path.closeAt(i)));
        nextFree = t + horizon * HOUR;
      }
      const { rho, t, n } = spearman(signal, forward);
      const upShare = (keep: (s: number) => boolean) => {
        const picked = forward.filter((_, k) => keep(signal[k] as number));
        return picked.filter((r) => r > 0).length / picked.length;
      };
      if (horizon === 24 && t !== null && t >= ADOPT_T) passesAt24h.set(`${asset}:${lookback}`, true);
      console.log(
        [asset.padEnd(5), `${lookback} d`.padEnd(8), `${horizon} h`.padEnd(7), String(n).padStart(7), (rho ?? NaN).toFixed(3).padStart(7), (t ?? NaN).toFixed(2).padStart(5),
          upShare((s) => s > 0).toFixed(3).padStart(20), upShare((s) => s < 0).toFixed(3).padStart(21)].join("  "),
      );
    }
  }
}
const adopted = LOOKBACK_DAYS.filter((l) => ["BTC", "ETH", "SOL"].every((a) => passesAt24h.get(`${a}:${l}`) === true));
console.log(adopted.length > 0 ? `adopt: lookback ${adopted.join(", ")} days passes at 24 h on all three` : `not adopted: no lookback has t >= ${ADOPT_T} at 24 h on BTC, ETH and SOL alike`);
