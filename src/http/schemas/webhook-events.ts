import { z } from "zod";
import type { WebhookEventType } from "../../domain/webhooks/event-types.js";
import { councilNewDataSchema } from "./council.js";
import { ghostSignalDataSchema } from "./ghost.js";
import { verdictNewDataSchema } from "./judiciary.js";
import { macroAlertData, regimeChangeData } from "./webhooks.js";

/** `webhook.test` data (DECISIONS 5). */
export const webhookTestDataSchema = z
  .object({ message: z.string(), webhook_id: z.string().describe("the subscription the test was sent to") })
  .meta({ id: "WebhookTestData" });

/** What each event's `data` holds, and when it is sent: the OpenAPI document's `webhooks`. */
export const WEBHOOK_EVENT_PAYLOADS: Readonly<Record<WebhookEventType, { readonly summary: string; readonly data: z.ZodType }>> = {
  "verdict.new": { summary: "A new BTC Judiciary verdict (hourly)", data: verdictNewDataSchema },
  "council.new": { summary: "A new council session of BTC, TAO or SOL (every 30 minutes)", data: councilNewDataSchema },
  "regime.change": { summary: "The HMM market regime changed", data: regimeChangeData.meta({ id: "RegimeChangeData" }) },
  "ghost.signal": { summary: "A Ghost Trader entered, took its first target or exited (paper trades)", data: ghostSignalDataSchema },
  "macro.alert": { summary: "A macro alert: risk-off or a hawkish Fed", data: macroAlertData.meta({ id: "MacroAlertData" }) },
  "webhook.test": { summary: "Sent once by POST /v1/webhooks/test; never retried", data: webhookTestDataSchema },
};

/** The body of every delivery (SPEC "Webhook events"). */
export function webhookEnvelopeSchema(event: WebhookEventType, data: z.ZodType) {
  return z.object({
    event: z.literal(event),
    timestamp: z.iso.datetime({ precision: 3 }).describe("when the event was emitted, ISO 8601 UTC; market time in replay mode"),
    data,
  });
}

/** The headers every delivery carries (SPEC Authentication 5, DECISIONS 5). */
export const deliveryHeadersSchema = z.object({
  "x-service-signature": z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .describe("lowercase hex HMAC-SHA256 of the raw body, keyed with the whole whsec_ secret as UTF-8; the current secret only. Compare in constant time; answer 401 on a mismatch"),
  "x-service-event": z.string().describe("the event type, as in the body"),
  "x-service-delivery": z.string().describe("unique per event and subscription, the same on every retry: de-duplicate on it"),
  "webhook-id": z.string().describe("Standard Webhooks: the delivery id, as X-SERVICE-Delivery"),
  "webhook-timestamp": z.string().regex(/^\d+$/).describe("Standard Webhooks: Unix seconds of this attempt; refuse one too far from your clock (5 minutes) against replay"),
  "webhook-signature": z
    .string()
    .describe("Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of {webhook-id}.{webhook-timestamp}.{raw body}>`, keyed with the base64 after whsec_; for 24 h after a rotation a second entry under the old secret"),
});
