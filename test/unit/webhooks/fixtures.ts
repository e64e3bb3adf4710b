import { randomBytes } from "node:crypto";
import type { WebhookEvent } from "../../../src/domain/webhooks/webhook-body.js";
import type { SubscribableEventType } from "../../../src/domain/webhooks/event-types.js";
import { generateSecret } from "../../../src/domain/webhooks/secret.js";
import { createSubscription, type WebhookSubscription } from "../../../src/domain/webhooks/subscription.js";

export const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

export function subscription(events: readonly SubscribableEventType[] = ["verdict.new"], now = T0): WebhookSubscription {
  return createSubscription({
    id: "wh_1",
    ownerKeyId: "key_1",
    url: "https://hooks.example.com/in",
    events,
    secret: generateSecret(randomBytes),
    now,
  });
}

let counter = 0;
export function verdictEvent(id = `evt_${++counter}`, timestamp = new Date(T0).toISOString()): WebhookEvent {
  return {
    id,
    type: "verdict.new",
    timestamp,
    data: { ruling: "BUY", composite_score: 0.42, confidence: 0.7, regime: "BULL_TRENDING" },
  };
}
