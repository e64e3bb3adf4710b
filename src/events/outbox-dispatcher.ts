import type { Logger } from "../logging/logger.js";
import { runOutsideRequests } from "../logging/log-context.js";
import { processCounter } from "../observability/metrics.js";
import type { OutboxRecord } from "../store/ports/actor-state.js";
import type { OutboxStore } from "../store/ports/outbox.js";
import { eventEnvelopeSchema, type EventEnvelope } from "./event-envelope.js";
import type { EventBus } from "./event-bus.js";

const BATCH = 100;
/** A record's hold grows 1, 2, 4 … retry intervals per failure, to at most this many. */
const MAX_HOLD_INTERVALS = 60;

/** Created once per process: every dispatcher in it shares the collector. */
const heldBack = processCounter({
  name: "mis_outbox_held_total",
  help: "Outbox events held back for a later attempt, by reason: refused (a subscriber failed) or unreadable (not an event envelope)",
  labelNames: ["reason"],
});

type HoldReason = "refused" | "unreadable";

interface Hold {
  readonly failures: number;
  readonly until: number;
}

/**
 * Moves committed events from the outbox to the bus, oldest first, at least once: a record is
 * removed only after the bus accepted it, so a crash or a failing subscriber only delays it.
 * Runs when a turn committed events (kick), at start (what a crash left behind) and on a retry
 * interval while something is pending.
 *
 * A record the bus refuses (or that is not an envelope at all) is held back with a growing delay
 * and kept in the outbox, and the ones after it go on: one event a subscriber keeps failing on
 * must not stop every later event of every actor, and webhook deliveries are independent of each
 * other anyway (docs/decisions.md). The holds live in this dispatcher: the local host it serves is
 * the only process on its store, and a restart simply tries every held record again.
 */
export class OutboxDispatcher {
  private draining: Promise<void> | null = null;
  private again = false;
  private retry: NodeJS.Timeout | null = null;
  private readonly holds = new Map<string, Hold>();

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

  /** Delivers everything deliverable now (held records wait for their time); resolves after one pass. */
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
        // The store failed: everything stays in the outbox; the retry interval tries again.
        this.logger.warn({ err }, "outbox delivery failed; will retry");
        return;
      }
    } while (this.again);
  }

  private async drain(): Promise<void> {
    const seen = new Set<string>();
    let afterSeq: number | undefined;
    for (;;) {
      const batch = await this.outbox.pending(BATCH, afterSeq);
      const delivered: OutboxRecord[] = [];
      try {
        for (const record of batch) {
          seen.add(record.id);
          if ((this.holds.get(record.id)?.until ?? 0) > Date.now()) continue;
          if (await this.publish(record)) delivered.push(record);
        }
      } finally {
        if (delivered.length > 0) await this.outbox.markDelivered(delivered);
      }
      if (batch.length < BATCH) break;
      afterSeq = batch[batch.length - 1]?.seq;
    }
    // A whole pass saw every pending record: a hold whose record is gone is forgotten.
    for (const id of this.holds.keys()) if (!seen.has(id)) this.holds.delete(id);
  }

  /** True once the bus took the record; false when it is held back for a later attempt. */
  private async publish(record: OutboxRecord): Promise<boolean> {
    let envelope: EventEnvelope;
    try {
      envelope = eventEnvelopeSchema.parse(JSON.parse(record.envelope));
    } catch {
      // Nothing a retry changes; kept for an operator rather than dropped, retried rarely (a
      // fixed build reads it after a restart).
      this.hold(record, "unreadable", null);
      return false;
    }
    try {
      await this.bus.publish(record.topic, envelope);
    } catch (err) {
      this.hold(record, "refused", err);
      return false;
    }
    this.holds.delete(record.id);
    return true;
  }

  private hold(record: OutboxRecord, reason: HoldReason, err: unknown): void {
    const failures = (this.holds.get(record.id)?.failures ?? 0) + 1;
    const intervals = reason === "unreadable" ? MAX_HOLD_INTERVALS : Math.min(2 ** (failures - 1), MAX_HOLD_INTERVALS);
    const retryInMs = this.retryIntervalMs * intervals;
    this.holds.set(record.id, { failures, until: Date.now() + retryInMs });
    heldBack.labels(reason).inc();
    const fields = { event_id: record.id, topic: record.topic, actor_type: record.actorType, failures, retry_in_ms: retryInMs };
    if (reason === "unreadable") this.logger.error(fields, "outbox event unreadable: kept, later events go on");
    else this.logger.warn({ ...fields, err }, "outbox delivery failed; will retry");
  }
}
