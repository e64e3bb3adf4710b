import type { WebhookEventType } from "./event-types.js";

/** JSON a payload may hold; kept local so the domain needs no runtime module. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * One event as the webhook layer receives it from the bus. `id` is the producer's event id,
 * stable across bus redeliveries; it is not sent in the body (SPEC's envelope has no id) but
 * derives the delivery id, which is.
 */
export interface WebhookEvent {
  readonly id: string;
  readonly type: WebhookEventType;
  /** Emission time, ISO 8601. */
  readonly timestamp: string;
  readonly data: { readonly [key: string]: JsonValue };
}

/** The body SPEC.md defines: `{event, timestamp, data}`. */
export interface WebhookEnvelope {
  readonly event: WebhookEventType;
  readonly timestamp: string;
  readonly data: { readonly [key: string]: JsonValue };
}

export function toEnvelope(event: WebhookEvent): WebhookEnvelope {
  return { event: event.type, timestamp: event.timestamp, data: event.data };
}

/**
 * Serialised once per delivery and stored with it: signatures cover the exact bytes sent, so
 * every retry must send these same bytes.
 */
export function serializeEnvelope(event: WebhookEvent): string {
  return JSON.stringify(toEnvelope(event));
}
