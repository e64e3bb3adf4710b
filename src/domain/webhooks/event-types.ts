import { EVENT_TYPES, type EventType } from "../market/vocabulary.js";

/** Event types a subscription may ask for (SPEC "Events"); the names live in the vocabulary. */
export const SUBSCRIBABLE_EVENT_TYPES = EVENT_TYPES;
export type SubscribableEventType = EventType;

/** Sent only by `POST /v1/webhooks/test` (DECISIONS 5); nobody subscribes to it. */
export const WEBHOOK_TEST_EVENT = "webhook.test";

export type WebhookEventType = SubscribableEventType | typeof WEBHOOK_TEST_EVENT;

export function isSubscribableEventType(value: string): value is SubscribableEventType {
  return (SUBSCRIBABLE_EVENT_TYPES as readonly string[]).includes(value);
}
