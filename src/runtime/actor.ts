import type { ActorContext } from "./actor-context.js";

/**
 * Base of every actor class. Public async methods other than the hooks below are callable
 * through a proxy; each call is one turn. Fields of the instance are a cache at most: only
 * `ctx.state` survives deactivation, restarts and a move to another Dapr replica.
 */
export abstract class Actor {
  constructor(protected readonly ctx: ActorContext) {}

  /** Runs as a turn before the first call of an activation. */
  onActivate(): Promise<void> {
    return Promise.resolve();
  }

  /** Runs as the last turn of an activation (idle, shutdown, or a Dapr rebalance). */
  onDeactivate(): Promise<void> {
    return Promise.resolve();
  }

  /** A durable reminder fired; the payload is JSON as it was set, to be parsed by the actor. */
  receiveReminder(name: string, _payload: unknown): Promise<void> {
    return Promise.reject(new Error(`${this.ctx.type}/${this.ctx.id} has no handler for reminder ${name}`));
  }
}

/**
 * An actor class as the hosts see it: a stable type name (it keys stored state and Dapr's
 * placement, so renaming the class must not move it) and the prototype its methods come from.
 */
export interface ActorClass<A extends Actor> {
  readonly actorType: string;
  readonly prototype: A;
}

export type ActorConstructor<A extends Actor> = ActorClass<A> & (new (ctx: ActorContext) => A);

/** Builds an activation; lets actors take dependencies beyond their context. */
export type ActorFactory<A extends Actor> = (ctx: ActorContext) => A;

const ACTOR_TYPE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export function validActorType(name: string): string {
  if (!ACTOR_TYPE_NAME.test(name)) throw new Error(`invalid actor type name "${name}" (letters, digits, _ and -)`);
  return name;
}
