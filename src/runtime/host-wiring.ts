import { wallClock, type Clock } from "./clocks/clock.js";
import type { HostClocks } from "./clocks/host-clocks.js";
import type { Logger } from "../logging/logger.js";
import type { ContextServices } from "./activation-context.js";
import type { TurnDeps, TurnSink } from "./turn-runner.js";

/** What both hosts are given about time and logging. */
export interface HostBasics {
  /** The market clock. */
  readonly clock: Clock;
  /** The clock wall reminders fire by; default the system's. */
  readonly wallClock?: Clock;
  readonly logger: Logger;
}

/**
 * What only a host can do: reach its actors and keep its timers (as a context asks), and write a
 * turn's changes (its TurnSink).
 */
export type HostHooks = Pick<ContextServices, "proxy" | "setTimer" | "deleteTimer"> & TurnSink;

/** The services an actor context and a turn read, built the same way by the local and the Dapr host. */
export interface HostWiring {
  readonly clocks: HostClocks;
  readonly services: ContextServices;
  readonly turnDeps: TurnDeps;
  /** Aborted with a HostStoppingError when the host starts to stop: tells long turns (ActorContext.stopping). */
  readonly stopSignal: AbortController;
}

export function wireHost(basics: HostBasics, hooks: HostHooks): HostWiring {
  const clocks: HostClocks = { market: basics.clock, wall: basics.wallClock ?? wallClock };
  const stopSignal = new AbortController();
  // Outbox order across restarts: wall-clock microseconds, bumped to stay strictly increasing.
  // Wall time, not the service clock, because a replay clock restarts from an earlier instant.
  let lastOutboxSeq = 0;
  const services: ContextServices = {
    clocks,
    stopping: stopSignal.signal,
    logger: basics.logger,
    proxy: (cls, id) => hooks.proxy(cls, id),
    nextOutboxSeq: () => {
      lastOutboxSeq = Math.max(Date.now() * 1000, lastOutboxSeq + 1);
      return lastOutboxSeq;
    },
    setTimer: (activation, name, spec, callback) => hooks.setTimer(activation, name, spec, callback),
    deleteTimer: (activation, name) => hooks.deleteTimer(activation, name),
  };
  const turnDeps: TurnDeps = {
    clock: basics.clock,
    logger: basics.logger,
    sink: hooks,
  };
  return { clocks, services, turnDeps, stopSignal };
}
