import { z } from "zod";
import { Actor } from "../runtime/actor.js";
import type { ActorContext } from "../runtime/actor-context.js";
import { UPDATE_INTERVAL_MS } from "../domain/weights/weight-rules.js";
import { updateWeights, type WeightRow } from "../domain/weights/update-weights.js";
import { countedUnderSprints } from "../services/ghost-sprints.js";
import type { GhostLedgerRepository } from "../store/ports/ghost-ledger.js";
import type { SignalWeightRepository } from "../store/ports/signal-weights.js";

const SCHEDULE_VERSION = 1;

/**
 * Recomputes the adaptive signal multipliers every 6 market hours from the most recent counted
 * closed Ghost trades (SPEC "Signal weights"). One instance ("weights"). The cycle is a pure
 * function of the stored rows and trades, so a retried turn writes the same rows again.
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

  /** One update cycle; returns the rows written. */
  async update(): Promise<{ rows: number }> {
    const now = this.ctx.clock.now();
    const [trades, marks, previous] = await Promise.all([this.ledger.closed(), this.ledger.sprints(), this.weights.all()]);
    // Only trades closed by now: a replay restarted earlier must not grade the future.
    const counted = countedUnderSprints(trades, marks).filter((t) => t.exitTime <= now);
    const rows: WeightRow[] = updateWeights(previous, counted, new Date(now).toISOString());
    await this.weights.save(rows);
    this.ctx.state.set("lastUpdate", now);
    this.onUpdated(rows);
    return { rows: rows.length };
  }
}
