import { z } from "zod";
import { REGIMES } from "../../domain/market/vocabulary.js";
import { SUBSCRIBABLE_EVENT_TYPES } from "../../domain/webhooks/event-types.js";
import { DELIVERY_ERRORS } from "../../domain/webhooks/outcome.js";

// ---- Requests (SPEC endpoints 21-24, DECISIONS 5) ----

/**
 * HTTPS only at the schema; whether the host resolves to a public address is checked
 * afterwards (it needs DNS) and also answers 422.
 */
const webhookUrl = z
  .string()
  .trim()
  .max(2048)
  .meta({ format: "uri", pattern: "^https://" })
  .pipe(z.url({ protocol: /^https$/, normalize: true, error: "Input should be a valid URL with scheme https" }));

export const createWebhookBody = z.strictObject({
  url: webhookUrl,
  events: z.array(z.enum(SUBSCRIBABLE_EVENT_TYPES)).min(1).max(SUBSCRIBABLE_EVENT_TYPES.length),
});

/** PATCH `{is_active}` re-enables (resetting failures_since_success) or pauses. */
export const updateWebhookBody = z.strictObject({ is_active: z.boolean() });

/**
 * Any non-empty id is a question the ownership check answers: an id no subscription of the key
 * has (however long) is `webhook_not_found` (DECISIONS 5), not a validation error. Its length is
 * bounded by the request line and body limits, and it reaches the store only as a bound parameter.
 */
const webhookId = z.string().min(1);

export const testWebhookBody = z.strictObject({ webhook_id: webhookId.optional() });

export const webhookIdParams = z.strictObject({ id: webhookId });

// ---- Responses ----

export const webhookCreatedSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.enum(SUBSCRIBABLE_EVENT_TYPES)),
    secret: z.string().describe("whsec_ + 32 base64 characters; shown only in this response."),
    is_active: z.boolean(),
    created_at: z.string(),
  })
  .meta({ id: "WebhookCreated" });

export const webhookListItemSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.enum(SUBSCRIBABLE_EVENT_TYPES)),
    secret: z.null(),
    is_active: z.boolean(),
    disabled_reason: z
      .enum(["paused", "consecutive_failures", "gone", "key_deactivated"])
      .nullable()
      .describe("Why is_active is false: paused by PATCH, 10 failures, 410 Gone, or the owning key was deactivated"),
    created_at: z.string(),
    last_triggered_at: z.string().nullable(),
    failures_since_success: z.number().int().nonnegative(),
  })
  .meta({ id: "WebhookSubscription" });

export const webhookListSchema = z
  .object({ webhooks: z.array(webhookListItemSchema), count: z.number().int().nonnegative() })
  .meta({ id: "WebhookList" });

export const webhookDeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ id: "WebhookDeleted" });

export const webhookSecretSchema = z
  .object({ id: z.string(), secret: z.string(), previous_secret_expires_at: z.string() })
  .meta({ id: "WebhookSecretRotated" });

export const webhookTestResultSchema = z
  .object({
    delivered: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    results: z.array(
      z.object({
        webhook_id: z.string(),
        success: z.boolean(),
        status_code: z.number().int().nullable(),
        error: z.string().nullable(),
        duration_ms: z.number().int().nonnegative(),
      }),
    ),
  })
  .meta({ id: "WebhookTestResult" });

export const webhookDeliveriesSchema = z
  .object({
    webhook_id: z.string(),
    deliveries: z.array(
      z.object({
        event: z.string(),
        delivery_id: z.string(),
        attempt: z.number().int().nonnegative(),
        status_code: z.number().int().nullable(),
        error: z.union([z.enum(DELIVERY_ERRORS), z.literal("subscription_inactive"), z.literal("key_deactivated")]).nullable(),
        duration_ms: z.number().int().nonnegative(),
        attempted_at: z.string(),
        next: z
          .enum(["delivered", "retry", "exhausted", "gone", "cancelled"])
          .describe(
            "What followed: delivered; retry (another attempt is scheduled); exhausted (the 3 retries are used up, the event is not sent again); gone (410, the webhook was disabled); cancelled (the webhook became inactive or was its key deactivated before this attempt; not sent)",
          ),
      }),
    ),
  })
  .meta({ id: "WebhookDeliveries" });

// ---- Event payloads (SPEC "Events", DECISIONS 5); the others are beside their routes' schemas ----

export const regimeChangeData = z.object({
  from_regime: z.enum(REGIMES),
  to_regime: z.enum(REGIMES),
  confidence: z.number().min(0).max(1),
});

export const macroAlertData = z.object({
  alert: z.enum(["RISK_OFF", "FED_HAWKISH"]),
  risk_off_score: z.number(),
  fed_hawkishness: z.number(),
  key_driver: z.string(),
  message: z.string(),
});
