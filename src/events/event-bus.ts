import type { EventEnvelope } from "./event-envelope.js";

export type EventHandler = (event: EventEnvelope) => Promise<void>;

export type Unsubscribe = () => void;

/**
 * Delivery of committed events to consumers. At least once: `publish` rejects when it cannot
 * hand the event over, and the outbox dispatcher tries again, so handlers de-duplicate by id.
 */
export interface EventBus {
  publish(topic: string, event: EventEnvelope): Promise<void>;
  subscribe(topic: string, handler: EventHandler): Unsubscribe;
}
