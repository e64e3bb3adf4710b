import type { Actor, ActorClass, ActorConstructor, ActorFactory } from "./actor.js";
import { validActorType } from "./actor.js";
import { actorMethodNames } from "./actor-proxy.js";
import { metricsForType, type TypeMetrics } from "./runtime-metrics.js";

/** One registered actor type as a host uses it. */
export interface Registration {
  readonly type: string;
  readonly factory: ActorFactory<Actor>;
  /** The methods a caller may invoke; everything else (hooks included) is refused. */
  readonly methods: ReadonlySet<string>;
  readonly metrics: TypeMetrics;
}

/** The actor types of one host; both hosts register the same way. */
export class Registrations {
  private readonly byType = new Map<string, Registration>();

  add<A extends Actor>(cls: ActorClass<A> | ActorConstructor<A>, factory?: ActorFactory<A>): void {
    const type = validActorType(cls.actorType);
    if (this.byType.has(type)) throw new Error(`actor type ${type} is already registered`);
    const build: ActorFactory<Actor> = factory ?? ((ctx) => new (cls as ActorConstructor<A>)(ctx));
    this.byType.set(type, { type, factory: build, methods: actorMethodNames(cls), metrics: metricsForType(type) });
  }

  get(type: string): Registration | undefined {
    return this.byType.get(type);
  }

  require(type: string): Registration {
    const registration = this.byType.get(type);
    if (!registration) throw new Error(`actor type ${type} is not registered`);
    return registration;
  }

  types(): string[] {
    return [...this.byType.keys()];
  }
}
