import { Actor, type ActorClass } from "./actor.js";

type AsyncMethodKeys<A> = {
  [K in keyof A]: A[K] extends (...args: infer P) => Promise<unknown> ? (P extends [] | [unknown] ? K : never) : never;
}[keyof A];

/** The callable surface of an actor: its async methods of at most one argument, hooks excluded. */
export type ActorMethodName<A> = Exclude<AsyncMethodKeys<A>, keyof Actor>;

export type ActorProxy<A> = { readonly [K in ActorMethodName<A>]: A[K] };

/** Sends one call to an actor; hosts implement it (in-process queue or the Dapr sidecar). */
export type Invoke = (method: string, arg: unknown) => Promise<unknown>;

const methodCache = new WeakMap<object, ReadonlySet<string>>();

/**
 * Names a client may call, read from the class's prototype chain down to Actor. Dapr hands us
 * method names from HTTP paths, so this list is also the guard against calling anything else.
 */
export function actorMethodNames(cls: ActorClass<Actor>): ReadonlySet<string> {
  const cached = methodCache.get(cls);
  if (cached) return cached;
  const reserved = new Set(Object.getOwnPropertyNames(Actor.prototype));
  const names = new Set<string>();
  for (let proto: object | null = cls.prototype; proto && proto !== Actor.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (!reserved.has(name) && typeof descriptor?.value === "function") names.add(name);
    }
  }
  methodCache.set(cls, names);
  return names;
}

export function buildProxy<A extends Actor>(cls: ActorClass<A>, invoke: Invoke): ActorProxy<A> {
  const proxy: Record<string, (arg?: unknown) => Promise<unknown>> = {};
  for (const name of actorMethodNames(cls)) proxy[name] = (arg?: unknown) => invoke(name, arg);
  return proxy as unknown as ActorProxy<A>;
}
