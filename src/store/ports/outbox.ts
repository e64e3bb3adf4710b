import type { OutboxRecord } from "./actor-state.js";

/**
 * The dispatcher's view of the outbox that actor turns write into (see ActorStateStore.commit).
 * A record stays pending until the bus accepted it, so a crash between commit and publish only
 * delays the event.
 */
export interface OutboxStore {
  /** Oldest first. */
  pending(limit: number): Promise<OutboxRecord[]>;
  markDelivered(records: readonly OutboxRecord[]): Promise<void>;
}
