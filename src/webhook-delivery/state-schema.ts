import { z } from "zod";
import { SUBSCRIBABLE_EVENT_TYPES, WEBHOOK_TEST_EVENT } from "../domain/webhooks/event-types.js";
import { DELIVERY_ERRORS } from "../domain/webhooks/outcome.js";
import type { DeliveryRecord, PendingDelivery, SubscriptionState } from "../domain/webhooks/delivery-state.js";
import type { WebhookSubscription } from "../domain/webhooks/subscription.js";
import type { OwnerNotice } from "../domain/webhooks/owner-notice.js";

/**
 * zod schemas of the webhook domain's persisted JSON (actor state, store rows): whatever is read
 * back is validated before the pure state machine sees it.
 */
const eventType = z.union([z.enum(SUBSCRIBABLE_EVENT_TYPES), z.literal(WEBHOOK_TEST_EVENT)]);

const ownerNoticeSchema: z.ZodType<OwnerNotice> = z.object({
  reason: z.enum(["consecutive_failures", "gone"]),
  disabledAt: z.number(),
  failedAttempts: z.number().int().nonnegative(),
  dueAt: z.number(),
});

const replacedSecret = z.object({ secret: z.string(), expiresAt: z.number() });

/**
 * Rows and actor states written before a subscription kept several replaced secrets hold one,
 * `previousSecret` (or null); they read as a list of it.
 */
function withSecretList(v: unknown): unknown {
  if (typeof v !== "object" || v === null || "previousSecrets" in v || !("previousSecret" in v)) return v;
  const { previousSecret, ...rest } = v as { previousSecret: unknown };
  return { ...rest, previousSecrets: previousSecret === null ? [] : [previousSecret] };
}

export const subscriptionSchema: z.ZodType<WebhookSubscription> = z.preprocess(
  withSecretList,
  z.object({
    id: z.string(),
    ownerKeyId: z.string(),
    url: z.string(),
    events: z.array(z.enum(SUBSCRIBABLE_EVENT_TYPES)),
    secret: z.string(),
    previousSecrets: z.array(replacedSecret),
    isActive: z.boolean(),
    disabledReason: z.enum(["paused", "consecutive_failures", "gone", "key_deactivated"]).nullable(),
    createdAt: z.number(),
    lastTriggeredAt: z.number().nullable(),
    failuresSinceSuccess: z.number().int().nonnegative(),
  }),
);

export const deliveryRecordSchema: z.ZodType<DeliveryRecord> = z.object({
  deliveryId: z.string(),
  event: eventType,
  attempt: z.number().int().nonnegative(),
  statusCode: z.number().int().nullable(),
  error: z.union([z.enum(DELIVERY_ERRORS), z.literal("subscription_inactive"), z.literal("key_deactivated")]).nullable(),
  durationMs: z.number().nonnegative(),
  at: z.number(),
  next: z.enum(["delivered", "retry", "exhausted", "gone", "cancelled"]),
});

const pendingSchema: z.ZodType<PendingDelivery> = z.object({
  deliveryId: z.string(),
  eventId: z.string(),
  eventType,
  body: z.string(),
  attemptsMade: z.number().int().nonnegative(),
  dueAt: z.number(),
  sequence: z.number().int().nonnegative(),
});

export const subscriptionStateSchema: z.ZodType<SubscriptionState> = z.object({
  subscription: subscriptionSchema,
  pending: z.array(pendingSchema),
  finished: z.array(z.string()),
  records: z.array(deliveryRecordSchema),
  nextSequence: z.number().int().nonnegative(),
  // States written before owners were told of a disable have none owed.
  notice: ownerNoticeSchema.nullable().default(null),
});
