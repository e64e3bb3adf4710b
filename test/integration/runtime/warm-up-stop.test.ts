import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Actor } from "../../../src/runtime/actor.js";
import type { ActorContext } from "../../../src/runtime/actor-context.js";
import { wallClock } from "../../../src/runtime/clocks/clock.js";
import { ReplayMarketClock } from "../../../src/runtime/clocks/market-clock.js";
import { EventLoopSlice } from "../../../src/runtime/cooperative.js";
import { LocalActorHost } from "../../../src/runtime/local/local-host.js";
import { InProcessEventBus } from "../../../src/events/in-process-bus.js";
import { OutboxDispatcher } from "../../../src/events/outbox-dispatcher.js";
import { createLogger } from "../../../src/logging/logger.js";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import { warmUp, WARM_UP_STEP_MS } from "../../../src/composition/warm-up.js";
import { freshStoreUrl } from "../../support/service.js";

const FROM = Date.UTC(2025, 0, 1);
const UNTIL = FROM + 24 * 3_600_000;

/**
 * Stands for an Evidence actor's first evaluation: a turn that writes, then computes in slices
 * of the event loop for as long as nobody stops it (the real one takes seconds per asset).
 */
class LongEvaluationActor extends Actor {
  static readonly actorType = "LongEvaluation";

  constructor(
    ctx: ActorContext,
    private readonly started: () => void,
  ) {
    super(ctx);
  }

  async schedule(): Promise<void> {
    this.ctx.reminders.set("evaluate", { dueAt: FROM + 2 * WARM_UP_STEP_MS });
  }

  async evaluated(): Promise<boolean> {
    return (await this.ctx.state.get("evaluated", z.boolean())) ?? false;
  }

  override async receiveReminder(): Promise<void> {
    this.ctx.state.set("evaluated", true);
    this.started();
    const slice = new EventLoopSlice({ signal: this.ctx.stopping });
    for (;;) await slice.maybeYield();
  }
}

/** Counts its firings: a warm-up left alone fires it on every step. */
class StepCounterActor extends Actor {
  static readonly actorType = "StepCounter";

  async schedule(): Promise<void> {
    this.ctx.reminders.set("tick", { dueAt: FROM + WARM_UP_STEP_MS, periodMs: WARM_UP_STEP_MS });
  }

  async ticks(): Promise<number> {
    return (await this.ctx.state.get("ticks", z.number())) ?? 0;
  }

  override async receiveReminder(): Promise<void> {
    this.ctx.state.set("ticks", (await this.ticks()) + 1);
  }
}

function hostOn(store: Store, clock: ReplayMarketClock, started: () => void): LocalActorHost {
  const logger = createLogger("silent");
  const host = new LocalActorHost({ store: store.actorState, clock, logger, dispatcher: new OutboxDispatcher(store.actorOutbox, new InProcessEventBus(), logger) });
  host.register(LongEvaluationActor, (ctx) => new LongEvaluationActor(ctx, started));
  host.register(StepCounterActor);
  return host;
}

describe("a service stopping during its warm-up", () => {
  let store: Store;

  // One store per case: the first leaves the abandoned evaluation's reminder due in it.
  beforeEach(async () => {
    store = await openStore(freshStoreUrl("sqlite", "warmupstop"));
  });

  afterEach(async () => {
    await store.close();
  });

  it("ends the warm-up at the step under way: a long turn gives up and rolls back, no later step runs", async () => {
    const clock = new ReplayMarketClock(wallClock, FROM, 60, UNTIL + 3_600_000, UNTIL);
    let markStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const host = hostOn(store, clock, markStarted);
    await host.start();
    await host.proxy(LongEvaluationActor, "BTC").schedule();
    await host.proxy(StepCounterActor, "one").schedule();
    const stop = new AbortController();
    const warming = warmUp(clock, host, UNTIL, createLogger("silent"), stop.signal);
    await started;
    stop.abort();
    // Without the host shut down on abort, the long turn never ends and neither does this.
    const result = await warming;
    expect(result.to).toBe(FROM + 2 * WARM_UP_STEP_MS);
    expect(result.to).toBeLessThan(UNTIL);
    await host.shutdown();
    // The abandoned turn's write is gone; the step before it committed.
    const reopened = hostOn(store, clock, () => undefined);
    await reopened.start();
    try {
      expect(await reopened.proxy(LongEvaluationActor, "BTC").evaluated()).toBe(false);
      expect(await reopened.proxy(StepCounterActor, "one").ticks()).toBe(2);
    } finally {
      await reopened.shutdown();
    }
  });

  it("leaves the host running when the stop comes after the warm-up ended", async () => {
    const clock = new ReplayMarketClock(wallClock, FROM, 60, UNTIL + 3_600_000, UNTIL);
    const host = hostOn(store, clock, () => undefined);
    await host.start();
    await host.proxy(StepCounterActor, "two").schedule();
    const stop = new AbortController();
    const result = await warmUp(clock, host, UNTIL, createLogger("silent"), stop.signal);
    expect(result.to).toBe(UNTIL);
    stop.abort();
    try {
      // Every step fired it once (288 five-minute steps in a day), and the host still answers.
      expect(await host.proxy(StepCounterActor, "two").ticks()).toBe((UNTIL - FROM) / WARM_UP_STEP_MS);
    } finally {
      await host.shutdown();
    }
  });
});
