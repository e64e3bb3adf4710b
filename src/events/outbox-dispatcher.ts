import type { Logger } from "../logging/logger.js";
import { runOutsideRequests } from "../logging/log-context.js";
import type { OutboxStore } from "../store/ports/outbox.js";
import { eventEnvelopeSchema } from "./event-envelope.js";
import type { EventBus } from "./event-bus.js";

const BATCH = 100;

/**
 * Moves committed events from the outbox to the bus, oldest first, at least once: a record is
 * removed only after the bus accepted it, so a crash or a failing subscriber only delays it.
 * Runs when a turn committed events (kick), at start (what a crash left behind) and on a retry
 * interval while something is pending.
 */
export class OutboxDispatcher {
  private draining: Promise<void> | null = null;
  private again = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly outbox: OutboxStore,
    private readonly bus: EventBus,
    private readonly logger: Logger,
    private readonly retryIntervalMs = 1000,
  ) {}

  start(): void {
    this.retry ??= setInterval(() => this.kick(), this.retryIntervalMs);
    // The retry loop must never keep a finished process alive.
    this.retry.unref();
    this.kick();
  }

  kick(): void {
    if (this.draining) {
      this.again = true;
      return;
    }
    // The loop delivers every pending event, not the kicking turn's alone: nobody's request.
    this.draining = runOutsideRequests(() => this.drainLoop()).finally(() => {
      this.draining = null;
    });
  }

  /** Delivers everything deliverable now; resolves when the outbox is empty or the bus refused. */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
    this.kick();
    await this.draining;
  }

  async stop(): Promise<void> {
    if (this.retry) clearInterval(this.retry);
    this.retry = null;
    await this.flush();
  }

  private async drainLoop(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.drain();
      } catch (err) {
        // Kept in the outbox; the retry interval tries again.
        this.logger.warn({ err }, "outbox delivery failed; will retry");
        return;
      }
    } while (this.again);
  }

  private async drain(): Promise<void> {
    for (;;) {
      const batch = await this.outbox.pending(BATCH);
      if (batch.length === 0) return;
      const delivered = [];
      try {
        for (const record of batch) {
          const envelope = eventEnvelopeSchema.parse(JSON.parse(record.envelope));
          await this.bus.publish(record.topic, envelope);
          delivered.push(record);
        }
      } finally {
        if (delivered.length > 0) await this.outbox.markDelivered(delivered);
      }
      if (batch.length < BATCH) return;
    }
  }
}
