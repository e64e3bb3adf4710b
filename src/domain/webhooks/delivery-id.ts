import { createHash } from "node:crypto";

/**
 * `X-SERVICE-Delivery` / `webhook-id`: derived from the event id and the subscription id, so it
 * is the same on every retry and also when the bus redelivers the event (at least once) — a
 * receiver de-duplicating on it never processes one event twice.
 */
export function deliveryIdFor(eventId: string, subscriptionId: string): string {
  const digest = createHash("sha256").update(`${eventId}\u0000${subscriptionId}`).digest("base64url");
  return `msg_${digest.slice(0, 32)}`;
}
