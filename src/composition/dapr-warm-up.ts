import type { Logger } from "../logging/logger.js";
import type { ReplayMarketClock } from "../runtime/clocks/market-clock.js";
import type { DaprActorHost } from "../runtime/dapr/dapr-host.js";
import type { ActorHandover } from "../runtime/actor-handover.js";
import { LocalActorHost } from "../runtime/local/local-host.js";
import { MemoryActorStateStore, type ActorHoldings } from "../store/memory/actor-state.js";
import { InProcessEventBus } from "../events/in-process-bus.js";
import { OutboxDispatcher } from "../events/outbox-dispatcher.js";
import { MarketDataActor } from "../actors/market-data-actor.js";
import type { Capability, CapabilityContext } from "./capability.js";
import { warmUp, type WarmUpResult } from "./warm-up.js";

export interface DaprWarmUpResult extends WarmUpResult {
  /** Actors whose state and reminders moved into Dapr. */
  readonly actors: number;
  readonly reminders: number;
  /** Wall milliseconds the handover to Dapr took. */
  readonly handoverMs: number;
}

/** Handovers in flight at once: each is a few sidecar calls; the machine has two cores. */
const HANDOVER_CONCURRENCY = 4;

/**
 * The Dapr cluster's warm-up (issue 17 item 7), run by the replica that holds the cluster's clock.
 * Dapr fires reminders from its scheduler on wall time, so it cannot be fast-forwarded. Instead
 * the same actor classes run on an in-process host, stepped by the same fast-forward as a local
 * start, writing their results (signals, regimes, verdicts, councils, trades, evidence) to the
 * shared store; their own state and reminders stay in this process's memory until the warm-up is
 * over, then each actor's move into Dapr (`DaprActorHost.adopt`), where placement gives it to
 * its replica. The cluster then starts at the market position, with the history, a local
 * instance has. Returns null when the service stopped during the warm-up.
 */
export async function warmUpThroughLocalHost(options: {
  readonly capabilities: readonly Capability[];
  readonly deps: CapabilityContext;
  readonly clock: ReplayMarketClock;
  readonly dapr: DaprActorHost;
  readonly until: number;
  readonly logger: Logger;
  /** The service stopping: the warm-up stops at its next step (see warmUp). */
  readonly stop: AbortSignal;
}): Promise<DaprWarmUpResult | null> {
  const { capabilities, deps, clock, dapr, until, logger, stop } = options;
  const memory = new MemoryActorStateStore();
  const bus = new InProcessEventBus();
  const host = new LocalActorHost({ store: memory, clock, wallClock: deps.wallClock, logger, dispatcher: new OutboxDispatcher(memory, bus, logger) });
  const ctx: CapabilityContext = { ...deps, host, bus };
  for (const capability of capabilities) capability.registerActors(ctx);
  await host.start();
  let result: WarmUpResult;
  try {
    await Promise.all(capabilities.map((capability) => capability.start(ctx)));
    result = await warmUp(clock, host, until, logger, stop);
  } finally {
    // Deactivation flushes what actors hold back (the recorder's commit window) and the outbox.
    await host.shutdown();
  }
  if (stop.aborted) return null;
  const started = Date.now();
  const handovers = memory.holdings().map((h) => handoverOf(h, clock.now(), deps.wallClock.now()));
  const { first, last } = handoverOrder(handovers);
  const queue = [...first];
  await Promise.all(
    Array.from({ length: HANDOVER_CONCURRENCY }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await dapr.adopt(next);
    }),
  );
  for (const h of last) await dapr.adopt(h);
  return {
    ...result,
    actors: handovers.length,
    reminders: handovers.reduce((n, h) => n + h.reminders.length, 0),
    handoverMs: Date.now() - started,
  };
}

/**
 * The recorder's position is what tells the next founder "the cluster has warmed up: resume"
 * (`recordedPosition`). So the MarketData actor moves last, after every other actor's move
 * succeeded: a founder that dies (or an adopt that fails) mid-handover leaves no position in
 * Dapr, and the next founder warms up again, instead of resuming with traders and the regime
 * actor started empty (an open position gone with no EXIT, hysteresis lost).
 */
export function handoverOrder(handovers: readonly ActorHandover[]): { readonly first: ActorHandover[]; readonly last: ActorHandover[] } {
  const isRecorder = (h: ActorHandover): boolean => h.type === MarketDataActor.actorType && h.id === MarketDataActor.ID;
  return { first: handovers.filter((h) => !isRecorder(h)), last: handovers.filter(isRecorder) };
}

/** Reminder due times become delays on their own clock, measured at the handover. */
export function handoverOf(holdings: ActorHoldings, marketNow: number, wallNow: number): ActorHandover {
  return {
    type: holdings.actor.type,
    id: holdings.actor.id,
    state: [...holdings.state],
    reminders: holdings.reminders.map((r) => ({
      name: r.name,
      clock: r.clock,
      dueInMs: r.dueAt - (r.clock === "wall" ? wallNow : marketNow),
      periodMs: r.periodMs,
      payload: r.payload,
    })),
  };
}
