import type { PendingDelivery } from "./delivery-state.js";
import { serializeEnvelope, type WebhookEvent } from "./webhook-body.js";
import { deliveryHeaders } from "./signing.js";
import { signingSecrets, type WebhookSubscription } from "./subscription.js";

/** Everything the transport needs for one attempt; built here so the adapter signs nothing. */
export interface DeliveryRequest {
  readonly url: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** The signed request of one attempt, stamped with the attempt time. */
export function buildDeliveryRequest(subscription: WebhookSubscription, delivery: PendingDelivery, now: number): DeliveryRequest {
  return {
    url: subscription.url,
    body: delivery.body,
    headers: deliveryHeaders({
      deliveryId: delivery.deliveryId,
      eventType: delivery.eventType,
      timestampSeconds: Math.floor(now / 1000),
      body: delivery.body,
      secrets: signingSecrets(subscription, now),
    }),
  };
}

/**
 * `POST /v1/webhooks/test` (DECISIONS 5): a `webhook.test` event sent once, outside the state
 * machine, so it is never retried and never touches `failures_since_success`.
 */
export function buildTestRequest(subscription: WebhookSubscription, eventId: string, now: number): DeliveryRequest {
  const event: WebhookEvent = {
    id: eventId,
    type: "webhook.test",
    timestamp: new Date(now).toISOString(),
    data: { message: "Test event from the market intelligence service", webhook_id: subscription.id },
  };
  const body = serializeEnvelope(event);
  const deliveryId = `test_${eventId}`;
  return {
    url: subscription.url,
    body,
    headers: deliveryHeaders({
      deliveryId,
      eventType: event.type,
      timestampSeconds: Math.floor(now / 1000),
      body,
      secrets: signingSecrets(subscription, now),
    }),
  };
}
