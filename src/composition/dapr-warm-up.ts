import { setTimeout as wait } from "node:timers/promises";
import type { Logger } from "../logging/logger.js";
import type { ReplayMarketClock } from "../runtime/clocks/market-clock.js";
import type { DaprActorHost } from "../runtime/dapr/dapr-host.js";
import type { ActorHandover } from "../runtime/actor-handover.js";
import { LocalActorHost } from "../runtime/local/local-host.js";
import { MemoryActorStateStore, type ActorHoldings } from "../store/memory/actor-state.js";
import { InProcessEventBus } from "../events/in-process-bus.js";
import { OutboxDispatcher } from "../events/outbox-dispatcher.js";
import { MarketDataActor } from "../actors/market-data-actor.js";
import { KeyLifecycle } from "../application/key-lifecycle.js";
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
  // Its own key lifecycle too: the warm-up host's listeners (webhooks marks a deactivated key's
  // subscriptions) must not outlive it on the service's, where each deactivation called the
  // stopped host and logged a refusal per subscription. The actors check the key's lineage
  // before every send, so one deactivated during the warm-up still sends nothing.
  const ctx: CapabilityContext = { ...deps, host, bus, keyLifecycle: new KeyLifecycle() };
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
  if (!(await handOver(handovers, (h) => dapr.adopt(h), { stop, logger }))) return null;
  return {
    ...result,
    actors: handovers.length,
    reminders: handovers.reduce((n, h) => n + h.reminders.length, 0),
    handoverMs: Date.now() - started,
  };
}

/** Waits between attempts of one actor's move: a sidecar busy with replicas joining answers again within seconds. */
const ADOPT_RETRY_MS = [1_000, 2_000, 4_000, 8_000, 10_000] as const;

/**
 * Moves every actor into Dapr, the recorder last (see `handoverOrder`). A move that fails is
 * tried again (a move is idempotent: the same state and reminders written again) until it
 * succeeds or the service stops, while the founder keeps holding the cluster's clock: releasing
 * it with some actors not moved would run the cluster with them empty (a trader's open position
 * gone with no EXIT) for good, since the recorder's position then says "warmed up". The other
 * replicas wait for the clock meanwhile and answer not-ready. False when the service stopped.
 */
export async function handOver(
  handovers: readonly ActorHandover[],
  adopt: (handover: ActorHandover) => Promise<void>,
  options: { readonly stop: AbortSignal; readonly logger: Logger; readonly retryMs?: readonly number[] },
): Promise<boolean> {
  const { stop, logger } = options;
  const retryMs = options.retryMs ?? ADOPT_RETRY_MS;
  const move = async (h: ActorHandover): Promise<boolean> => {
    for (let attempt = 1; !stop.aborted; attempt++) {
      try {
        await adopt(h);
        return true;
      } catch (err) {
        if (stop.aborted) return false;
        const waitMs = retryMs[Math.min(attempt, retryMs.length) - 1] ?? 0;
        logger.warn({ err, actor_type: h.type, actor_id: h.id, attempt, retry_in_ms: waitMs }, "moving an actor into Dapr failed; trying again");
        // Ends at once when the service stops (it rejects then, which is the point).
        await wait(waitMs, undefined, { signal: stop }).catch(() => undefined);
      }
    }
    return false;
  };
  const { first, last } = handoverOrder(handovers);
  const queue = [...first];
  const moved = await Promise.all(
    Array.from({ length: HANDOVER_CONCURRENCY }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) if (!(await move(next))) return false;
      return true;
    }),
  );
  if (!moved.every(Boolean)) return false;
  for (const h of last) if (!(await move(h))) return false;
  return true;
}

/**
 * The recorder's position is what tells the next founder "the cluster has warmed up: resume"
 * (`recordedPosition`). So the MarketData actor moves last, after every other actor's move
 * succeeded: a founder that dies mid-handover leaves no position in Dapr, and the next founder
 * warms up again, instead of resuming with traders and the regime actor started empty (an open
 * position gone with no EXIT, hysteresis lost).
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
