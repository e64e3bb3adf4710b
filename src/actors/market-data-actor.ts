import { z } from "zod";
import { Actor } from "../runtime/actor.js";
import type { ActorContext } from "../runtime/actor-context.js";
import type { SignalRecorder } from "../application/signal-recorder.js";
import type { MarketFeed } from "../feeds/market-feed.js";
import { macroCorrelationAt } from "../application/macro-now.js";

const MINUTE = 60_000;
const SCHEDULE_VERSION = 1;

/**
 * Records what the market feed observed into the signal history, once a market minute. One
 * instance ("market"); its reminder is what makes recording run on the same schedule on the
 * local host and on Dapr. Its state also remembers how far market time has been recorded, which
 * is where a restarted replay resumes. It also watches the macro breakdown and publishes
 * `macro.alert` when an alert starts (not on every minute it stays raised).
 */
export class MarketDataActor extends Actor {
  static readonly actorType = "MarketData";
  static readonly ID = "market";

  constructor(
    ctx: ActorContext,
    private readonly recorder: SignalRecorder,
    private readonly feed: MarketFeed,
  ) {
    super(ctx);
  }

  /** Sets the recording reminder unless this version of it is already set. */
  async ensureScheduled(): Promise<void> {
    const version = await this.ctx.state.get("schedule", z.number());
    if (version === SCHEDULE_VERSION) return;
    this.ctx.reminders.set("record", { dueInMs: 0, periodMs: MINUTE });
    this.ctx.state.set("schedule", SCHEDULE_VERSION);
  }

  /** Market time recorded up to, or null before the first run. */
  async position(): Promise<number | null> {
    return (await this.ctx.state.get("recordedUpTo", z.number())) ?? null;
  }

  /** Points the recorder holds for its commit window reach the store before the actor goes. */
  override async onDeactivate(): Promise<void> {
    await this.recorder.flush();
  }

  override async receiveReminder(name: string): Promise<void> {
    if (name !== "record") return;
    const recorded = await this.ctx.state.get("recordedUpTo", z.number());
    const now = this.ctx.clock.now();
    // The cursor never moves back. A replica whose start-up has not yet set its market clock
    // (Dapr fires reminders on any replica as soon as it hosts the actor) stands before what is
    // recorded: it records nothing until its clock has caught up (issue 17: a restarted replica
    // rewrote an hour of history and stopped the verdicts).
    if (recorded !== undefined && now < recorded) {
      this.ctx.logger.debug({ now, recorded }, "market clock behind the recorded position; recording waits for it");
      return;
    }
    const result = await this.recorder.recordUpTo(now);
    this.ctx.state.set("recordedUpTo", Math.max(result.upTo, recorded ?? result.upTo));
    if (result.written > 0) this.ctx.logger.debug({ written: result.written, pruned: result.pruned }, "signal history recorded");
    await this.#watchMacro(result.upTo);
  }

  async #watchMacro(at: number): Promise<void> {
    const raised = (await this.ctx.state.get("macroAlerts", z.array(z.string()))) ?? [];
    const alerts = macroCorrelationAt(this.feed, at).alerts;
    for (const alert of alerts) {
      if (!raised.includes(alert.alert)) await this.ctx.publish("macro.alert", { ...alert });
    }
    const now = alerts.map((a) => a.alert);
    if (now.length !== raised.length || now.some((a) => !raised.includes(a))) this.ctx.state.set("macroAlerts", now);
  }
}
