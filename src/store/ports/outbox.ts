import type { OutboxRecord } from "./actor-state.js";

/**
 * The dispatcher's view of the outbox that actor turns write into (see ActorStateStore.commit).
 * A record stays pending until the bus accepted it, so a crash between commit and publish only
 * delays the event.
 */
export interface OutboxStore {
  /**
   * Oldest first; with `afterSeq`, only records emitted after that one, so a reader can page past
   * records it is holding back (a subscriber refusing one event must not hide the later ones).
   */
  pending(limit: number, afterSeq?: number): Promise<OutboxRecord[]>;
  markDelivered(records: readonly OutboxRecord[]): Promise<void>;
}
