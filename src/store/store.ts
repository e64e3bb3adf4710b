import type { ApiKeyRepository } from "./ports/api-keys.js";
import type { CounterRepository } from "./ports/counters.js";
import type { SlidingWindowRepository } from "./ports/sliding-windows.js";
import type { NewsletterRepository } from "./ports/newsletter.js";
import type { ActorStateStore } from "./ports/actor-state.js";
import type { OutboxStore } from "./ports/outbox.js";
import type { SignalHistoryRepository } from "./ports/signal-history.js";

/**
 * Every repository the service persists through, on one backend. Capabilities add their
 * repositories here; code depends on the ports, never on an adapter.
 */
export interface Store {
  readonly kind: "sqlite" | "mongodb";
  readonly apiKeys: ApiKeyRepository;
  readonly counters: CounterRepository;
  readonly slidingWindows: SlidingWindowRepository;
  readonly newsletter: NewsletterRepository;
  /** Actor state, reminders and the outbox the in-process actor host commits turns into. */
  readonly actorState: ActorStateStore;
  readonly actorOutbox: OutboxStore;
  /** Signal readings the recorder wrote, served by GET /v1/signals/history. */
  readonly signalHistory: SignalHistoryRepository;
  /** Throws when the backend cannot be reached (readiness probe). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
