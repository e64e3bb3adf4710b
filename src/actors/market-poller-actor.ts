import { z } from "zod";
import { Actor } from "../runtime/actor.js";
import type { ActorContext } from "../runtime/actor-context.js";
import { within } from "../runtime/activation-table.js";
import type { MarketPoller } from "../feeds/live/market-poller.js";

/**
 * How long a poll turn waits for its poll. Provider timeouts and backoff can stretch a poll to
 * tens of seconds; past this the poll finishes in the background (single-flight, so the next
 * firing joins it instead of doubling it) and the turn ends, so shutdown stays within DECISIONS 1's 10 s.
 */
export const POLL_TURN_BUDGET_MS = 3_000;

/** State key: until when (wall ms) the provider asked not to be called. */
const HOLD_KEY = "providerHoldUntil";

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
      this.ctx.state.delete(HOLD_KEY);
      return;
    }
    const id = this.poller.id;
    // A provider's ask to be left alone outlives the activation that heard it: honoured here
    // before calling, so this replica does not call through a ban another one was given.
    const stored = await this.ctx.state.get(HOLD_KEY, z.number());
    if (stored !== undefined) this.poller.holdUntil(stored);
    let outcome = "pending";
    const work = this.poller.poll().then((r) => {
      outcome = r.ok ? `ok, ${r.readings.length} readings` : `failed: ${r.error.kind}`;
      if (!r.ok) this.ctx.logger.debug({ poller: id, kind: r.error.kind, err: r.error.message }, "live poll failed");
    });
    const waited = await within(work, POLL_TURN_BUDGET_MS);
    if (waited === "timeout") {
      this.ctx.logger.debug({ poller: id }, "live poll still running; it finishes in the background");
      this.#saveHoldWhenDone(work);
    } else this.ctx.logger.trace({ poller: id, outcome }, "live poll");
    const held = this.poller.providerHoldUntil();
    if (held !== null && held !== stored) this.ctx.state.set(HOLD_KEY, held);
    else if (held === null && stored !== undefined) this.ctx.state.delete(HOLD_KEY);
  }

  /**
   * Saves a provider's hold that a poll heard after its turn ended (called by this actor, in a turn
   * of its own). Takes the time, not this process's breaker: under Dapr the call may reach the
   * replica the actor has moved to, whose poller has not heard the ask; it honours it from here on.
   */
  async recordHold(untilMs: number): Promise<void> {
    const until = z.number().finite().parse(untilMs);
    const stored = await this.ctx.state.get(HOLD_KEY, z.number());
    if (stored !== undefined && stored >= until) return;
    this.poller?.holdUntil(until);
    this.ctx.state.set(HOLD_KEY, until);
  }

  /**
   * A poll that outlived its turn can still meet a 429 or a ban. Left for the next firing to save
   * (a poll period later), that hold was lost when the actor moved first, and the replica it moved
   * to called through the ban. So once the poll ends, the actor saves it in a turn of its own.
   */
  #saveHoldWhenDone(work: Promise<void>): void {
    const poller = this.poller;
    if (!poller) return;
    const self = this.ctx.proxy(MarketPollerActor, this.ctx.id);
    // A poll that failed outright may still have heard the ask first, so a rejection counts too.
    void work.catch(() => undefined).then(async () => {
      const held = poller.providerHoldUntil();
      if (held === null) return;
      try {
        await self.recordHold(held);
      } catch (err) {
        // The host is stopping, or the actor's replica does not answer: the next firing saves it.
        this.ctx.logger.debug({ poller: poller.id, err }, "provider hold not saved after a long poll");
      }
    });
  }
}
