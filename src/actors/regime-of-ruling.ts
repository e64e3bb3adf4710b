import type { ActorContext } from "../runtime/actor-context.js";
import type { RegimeHistoryRepository } from "../store/ports/regime-history.js";
import type { Regime } from "../domain/market/vocabulary.js";
import { currentRegimeAt } from "../application/current-regime.js";
import { RegimeActor } from "./regime-actor.js";

const HOUR = 3_600_000;

/**
 * The regime a ruling at `at` reads: the evaluation of the newest hourly close at or before
 * `at`, as the export and the backtest read it. The detector's turn for that close is due at the
 * same instant as the ruling's (turn-order.ts), and turns due at one instant run side by side, on
 * any replica: by turn order alone a ruling would read its close's regime or the hour before's.
 * So when that close's evaluation is not stored yet, the Regime actor is asked to make it first
 * (its turns are one at a time, so the hourly turn then finds it done). Null: no LIVE regime
 * (none yet, or only one from before a gap in the price).
 */
export async function regimeOfRuling(
  ctx: ActorContext,
  regimes: Pick<RegimeHistoryRepository, "latestAtOrBefore">,
  at: number,
  askDetector: boolean,
): Promise<Regime | null> {
  const close = Math.floor(at / HOUR) * HOUR;
  if (askDetector && ((await regimes.latestAtOrBefore(at))?.at ?? -Infinity) < close) {
    try {
      await ctx.proxy(RegimeActor, RegimeActor.ID).evaluateThrough({ close });
    } catch (err) {
      // The detector's own turn stays the authority: the ruling goes on with what is stored.
      ctx.logger.warn({ err: String(err), close: new Date(close).toISOString() }, "the regime of this close could not be evaluated first; the ruling reads the newest stored one");
    }
  }
  return (await currentRegimeAt(regimes, at))?.report.regime ?? null;
}
