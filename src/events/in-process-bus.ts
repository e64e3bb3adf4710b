import type { EventEnvelope } from "./event-envelope.js";
import type { EventBus, EventHandler, Unsubscribe } from "./event-bus.js";

/**
 * The single-machine bus. `publish` resolves once every handler accepted the event and rejects
 * if one failed, so the outbox keeps the event for another attempt (each handler de-duplicates).
 */
export class InProcessEventBus implements EventBus {
  private readonly handlers = new Map<string, Set<EventHandler>>();

  async publish(topic: string, event: EventEnvelope): Promise<void> {
    const handlers = [...(this.handlers.get(topic) ?? [])];
    const outcomes = await Promise.allSettled(handlers.map((h) => h(event)));
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
    if (failed) throw new Error(`a subscriber of ${topic} failed on event ${event.id}`, { cause: failed.reason });
  }

  subscribe(topic: string, handler: EventHandler): Unsubscribe {
    const set = this.handlers.get(topic) ?? new Set<EventHandler>();
    set.add(handler);
    this.handlers.set(topic, set);
    return () => set.delete(handler);
  }
}
