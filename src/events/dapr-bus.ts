import { z } from "zod";
import type { Logger } from "../logging/logger.js";
import { eventEnvelopeSchema, type EventEnvelope } from "./event-envelope.js";
import type { EventBus, EventHandler, Unsubscribe } from "./event-bus.js";

/** The one sidecar call this bus needs (SidecarClient has it). */
export interface DaprPublisher {
  publish(pubsub: string, topic: string, body: string): Promise<void>;
}

/** Dapr's programmatic subscription entry (GET /dapr/subscribe). */
export interface DaprSubscription {
  readonly pubsubname: string;
  readonly topic: string;
  readonly route: string;
}

/** What the app answers a delivery; RETRY makes Dapr redeliver later. */
export type DeliveryStatus = "SUCCESS" | "RETRY" | "DROP";

const cloudEventSchema = z.object({ data: z.unknown() }).loose();

export const DAPR_EVENTS_ROUTE = "/dapr/events";

/**
 * The event bus on Dapr pub/sub. Replicas share the app id, so each event reaches one replica's
 * handlers (a consumer group), as one in-process bus would in a single process. Dapr reads the
 * subscriptions once, when the app is up: subscribe before serving.
 */
export class DaprEventBus implements EventBus {
  private readonly handlers = new Map<string, Set<EventHandler>>();

  constructor(
    private readonly sidecar: DaprPublisher,
    private readonly pubsub: string,
    private readonly logger: Logger,
  ) {}

  async publish(topic: string, event: EventEnvelope): Promise<void> {
    await this.sidecar.publish(this.pubsub, topic, JSON.stringify(event));
  }

  subscribe(topic: string, handler: EventHandler): Unsubscribe {
    const set = this.handlers.get(topic) ?? new Set<EventHandler>();
    set.add(handler);
    this.handlers.set(topic, set);
    return () => set.delete(handler);
  }

  subscriptions(): DaprSubscription[] {
    return [...this.handlers.keys()].map((topic) => ({
      pubsubname: this.pubsub,
      topic,
      route: `${DAPR_EVENTS_ROUTE}/${encodeURIComponent(topic)}`,
    }));
  }

  /** One delivery from daprd (a CloudEvent whose data is our envelope); never throws. */
  async deliver(topic: string, bodyText: string): Promise<DeliveryStatus> {
    let envelope: EventEnvelope;
    try {
      const cloudEvent = cloudEventSchema.parse(JSON.parse(bodyText));
      const data = typeof cloudEvent.data === "string" ? (JSON.parse(cloudEvent.data) as unknown) : cloudEvent.data;
      envelope = eventEnvelopeSchema.parse(data);
    } catch (err) {
      // Redelivering a malformed message would fail the same way forever.
      this.logger.warn({ err, topic }, "dropped a malformed pub/sub delivery");
      return "DROP";
    }
    const handlers = [...(this.handlers.get(topic) ?? [])];
    const outcomes = await Promise.allSettled(handlers.map((h) => h(envelope)));
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
    if (!failed) return "SUCCESS";
    this.logger.warn({ err: failed.reason, topic, eventId: envelope.id }, "a subscriber failed; dapr will redeliver");
    return "RETRY";
  }
}
