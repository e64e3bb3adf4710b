import { z } from "zod";
import { Actor } from "../runtime/actor.js";
import type { ActorContext } from "../runtime/actor-context.js";
import { UPDATE_INTERVAL_MS } from "../domain/weights/weight-rules.js";
import { updateWeights, type WeightRow } from "../domain/weights/update-weights.js";
import { countedClosed } from "../domain/ghost/trade-validity.js";
import type { ClosedTrade } from "../domain/ghost/trade.js";
import { COIN_FLIP } from "../domain/weights/exit-baseline.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import { exitBaselines } from "../application/exit-baselines.js";
import type { GhostLedgerRepository } from "../store/ports/ghost-ledger.js";
import type { SignalWeightRepository } from "../store/ports/signal-weights.js";

const SCHEDULE_VERSION = 1;
const baselineStateSchema = z.record(z.string(), z.number().min(0).max(1));

/**
 * Recomputes the adaptive signal multipliers every 6 market hours from the most recent closed
 * Ghost trades (SPEC "Signal weights"), graded against the exits' no-skill baseline. One instance
 * ("weights"). The cycle is a pure function of the rows its mark started from and the trades, so
 * a retried turn writes the same rows again.
 */
export class WeightsActor extends Actor {
  static readonly actorType = "Weights";
  static readonly ID = "weights";

  constructor(
    ctx: ActorContext,
    private readonly ledger: GhostLedgerRepository,
    private readonly weights: SignalWeightRepository,
    /** Told the new rows after each cycle (the judiciary's in-memory multipliers); optional. */
    private readonly onUpdated: (rows: readonly WeightRow[]) => void = () => undefined,
    /**
     * Hourly bars for the exits' no-skill baseline (issue 16). The service always passes its
     * feed; without one (a store-only test) every call is graded against a coin flip.
     */
    private readonly feed: Pick<MarketFeed, "candles"> | null = null,
  ) {
    super(ctx);
  }

  async ensureScheduled(): Promise<void> {
    const version = await this.ctx.state.get("schedule", z.number());
    if (version === SCHEDULE_VERSION) return;
    const now = this.ctx.clock.now();
    // On the 6-hour grid of market time (00, 06, 12, 18 UTC), so every replica agrees on when.
    this.ctx.reminders.set("update", { dueAt: Math.ceil(now / UPDATE_INTERVAL_MS) * UPDATE_INTERVAL_MS, periodMs: UPDATE_INTERVAL_MS });
    this.ctx.state.set("schedule", SCHEDULE_VERSION);
  }

  override async receiveReminder(name: string): Promise<void> {
    if (name === "update") await this.update();
  }

  /**
   * One update cycle; returns the rows written. Idempotent per 6-hour mark: a cycle of a mark
   * already written (the reminder fired again after a crash before the turn committed, or a
   * second warm-up) starts from the rows that mark started from, so it writes the same rows
   * rather than stepping every multiplier a second time.
   */
  async update(): Promise<{ rows: number }> {
    const now = this.ctx.clock.now();
    const mark = Math.floor(now / UPDATE_INTERVAL_MS) * UPDATE_INTERVAL_MS;
    const [trades, last] = await Promise.all([this.ledger.closed(), this.weights.lastCycle()]);
    const previous = last === null ? [] : last.cycleAt === mark ? last.before : last.rows;
    // Every valid live-paper trade closed by now, restarts ignored (DECISIONS 7: a restart
    // changes what is published, not what is learned); a replay restarted earlier must not grade
    // the future.
    const graded = countedClosed(trades, 0).filter((t) => t.exitTime <= now);
    const baselineOf = await this.#baselines(graded);
    const rows: WeightRow[] = updateWeights(previous, graded, new Date(now).toISOString(), baselineOf);
    await this.weights.saveCycle({ cycleAt: mark, before: previous, rows });
    this.ctx.state.set("lastUpdate", now);
    this.onUpdated(rows);
    return { rows: rows.length };
  }

  /**
   * Each trade's exit baseline depends only on the bars before its entry, so it is computed once
   * (simulating ~2,000 random entries) and kept in the actor's state; a cycle computes only the
   * trades it has no baseline for. One that could not be measured (its bars not there yet) is
   * graded against a coin flip this cycle and not kept, so it is measured once they are. Without
   * a feed every call is graded against a coin flip.
   */
  async #baselines(trades: readonly ClosedTrade[]): Promise<(t: ClosedTrade) => number> {
    if (this.feed === null) return () => COIN_FLIP;
    const known = (await this.ctx.state.get("baselines", baselineStateSchema)) ?? {};
    const missing = trades.filter((t) => known[t.id] === undefined);
    const measured = missing.length === 0 ? new Map<string, number>() : exitBaselines(this.feed, missing);
    if (measured.size > 0) this.ctx.state.set("baselines", { ...known, ...Object.fromEntries(measured) });
    return (t) => known[t.id] ?? measured.get(t.id) ?? COIN_FLIP;
  }
}
