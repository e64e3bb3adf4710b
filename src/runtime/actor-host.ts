import type { Actor, ActorClass, ActorConstructor, ActorFactory } from "./actor.js";
import type { ActorProxy } from "./actor-proxy.js";

/**
 * What the service needs from an actor runtime. The in-process host and the Dapr host both
 * implement it, so actor classes and their callers never know which one runs them.
 */
export interface ActorHost {
  /** Makes a class callable; the factory lets an actor take dependencies beyond its context. */
  register<A extends Actor>(cls: ActorConstructor<A>): void;
  register<A extends Actor>(cls: ActorClass<A>, factory: ActorFactory<A>): void;
  /** A typed handle on one actor id; each method call is one turn of that actor. */
  proxy<A extends Actor>(cls: ActorClass<A>, id: string): ActorProxy<A>;
  /** Loads durable reminders and starts firing them and timers. */
  start(): Promise<void>;
  /**
   * Stops firing reminders and timers, lets running and queued turns finish, deactivates every
   * actor and flushes pending events; then refuses further calls. `withinMs`: how long turns may
   * take to finish (default the host's own limit), so a caller with a deadline of its own (the
   * service's 10 s stop) can give the host what is left of it.
   */
  shutdown(withinMs?: number): Promise<void>;
  /** How long the longest turn running now has been running, in wall milliseconds (0: none). */
  oldestTurnMs(): number;
}

/** Thrown to callers of a host that has shut down. */
export class ActorHostStoppedError extends Error {
  constructor(type: string, id: string) {
    super(`actor host is stopped; call to ${type}/${id} refused`);
    this.name = "ActorHostStoppedError";
  }
}

/**
 * A turn's commit refused because the runtime moved the actor to another replica during the turn
 * (a Dapr placement rebalance when a replica joins or leaves). The turn is rolled back like any
 * failed turn; the runtime routes the next call to the actor's new owner. Expected while replicas
 * come and go, so it is logged as a warning, not an error.
 */
export class ActorMovedError extends Error {
  constructor(type: string, id: string, detail: string) {
    super(`${type}/${id} moved to another replica during its turn: ${detail}`);
    this.name = "ActorMovedError";
  }
}

/**
 * The runtime did not answer a turn's state call in time (daprd holding a read while placement
 * rebalances). The turn is rolled back like any failed turn and will run again (the caller
 * retries, a reminder fires again): expected while replicas come and go, so a warning.
 */
export class RuntimeTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RuntimeTimeoutError";
  }
}

/** A turn that gave up because its host is stopping (see `ActorContext.stopping`); it rolled back. */
export class HostStoppingError extends Error {
  constructor() {
    super("the actor host is stopping");
    this.name = "HostStoppingError";
  }
}
