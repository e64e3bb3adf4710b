import { z } from "zod";
import { Actor } from "../runtime/actor.js";
import type { ActorContext } from "../runtime/actor-context.js";
import { within } from "../runtime/activation-table.js";
import type { MarketPoller } from "../feeds/live/market-poller.js";
import type { PollResult } from "../feeds/live/resilient-provider.js";
import { countLivePoll } from "../observability/live-source-metrics.js";
import { noteOutage } from "./outage-span.js";

/**
 * How long a poll turn waits for its poll. Provider timeouts and backoff can stretch a poll to
 * tens of seconds; past this the poll finishes in the background (single-flight, so the next
 * firing joins it instead of doubling it) and the turn ends, so shutdown stays within DECISIONS 1's 10 s.
 */
export const POLL_TURN_BUDGET_MS = 3_000;

/**
 * Live polling (MARKET_FEED=live): one actor per poller (id = provider id or `candles:<ASSET>`),
 * whose "poll" reminder fires at the poller's period and calls it. One actor per poller, not one
 * for all: a slow provider holds up only its own schedule, never the others' or the recorder's.
 */
export class MarketPollerActor extends Actor {
  static readonly actorType = "MarketPoller";

  constructor(
    ctx: ActorContext,
    /** Undefined when this process has no such poller (a store last run live, now replaying). */
    private readonly poller: MarketPoller | undefined,
  ) {
    super(ctx);
  }

  /** Sets the poll reminder at the poller's period, unless it is already set at that period. */
  async ensureScheduled(): Promise<void> {
    if (!this.poller) return;
    const every = await this.ctx.state.get("everyMs", z.number());
    if (every === this.poller.everyMs) return;
    this.ctx.reminders.set("poll", { dueInMs: 0, periodMs: this.poller.everyMs });
    this.ctx.state.set("everyMs", this.poller.everyMs);
  }

  override async receiveReminder(name: string): Promise<void> {
    if (name !== "poll") return;
    if (!this.poller) {
      // A schedule left over from a live run on this store: nothing to poll here, so drop it.
      this.ctx.reminders.delete("poll");
      this.ctx.state.delete("everyMs");
      return;
    }
    const id = this.poller.id;
    const seen: { result: PollResult<unknown> | null } = { result: null };
    const work = this.poller.poll().then((r) => {
      seen.result = r;
      countLivePoll(id, r.ok ? "ok" : r.error.kind);
      if (!r.ok) this.ctx.logger.debug({ poller: id, kind: r.error.kind, err: r.error.message }, "live poll failed");
    });
    const waited = await within(work, POLL_TURN_BUDGET_MS);
    const polled = seen.result;
    if (waited === "timeout" || polled === null) {
      this.ctx.logger.debug({ poller: id }, "live poll still running; it finishes in the background");
      return;
    }
    this.ctx.logger.trace({ poller: id, ok: polled.ok }, "live poll");
    // A source that stays down logs once where it starts failing and once where it answers again.
    // A poll finishing in the background is only counted: its turn is over. A source that keeps
    // timing out is seen here once its circuit breaker opens and fails polls fast.
    await noteOutage(this.ctx, {
      key: "failingSince",
      at: this.ctx.clock.now(),
      ok: polled.ok,
      started: `live source failing: ${id}`,
      ended: `live source answering again: ${id}`,
      fields: { poller: id, ...(polled.ok ? {} : { kind: polled.error.kind, err: polled.error.message }) },
    });
  }
}
