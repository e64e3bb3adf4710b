/**
 * Webhook limits of SPEC.md ("Limits", "Events") and DECISIONS 5, in one place so the state
 * machine, the adapter and the HTTP layer cannot drift apart.
 */

/** Delays before retries 1, 2 and 3 after a failed attempt (SPEC: 5 s, 25 s, 125 s). */
export const RETRY_DELAYS_MS: readonly number[] = [5_000, 25_000, 125_000];

/** Consecutive failed attempts after which a subscription is disabled (SPEC "Limits"). */
export const AUTO_DISABLE_AFTER_FAILURES = 10;

/** Subscriptions per API key (SPEC "Limits"). */
export const MAX_SUBSCRIPTIONS_PER_KEY = 5;

/** A 2xx must arrive within this time to count as a success (DECISIONS 5). */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** At most this much of a receiver's response body is read (issue 9). */
export const MAX_RESPONSE_BYTES = 64 * 1024;

/** After a secret rotation the old secret keeps signing `webhook-signature` this long. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * Replaced secrets kept signing at once: each keeps its 24 h, so a second rotation inside a
 * first one's overlap (a client retrying a lost rotate-secret response) does not cut short the
 * overlap the first response promised. Beyond this many, the oldest goes first: every delivery
 * carries one signature per secret.
 */
export const MAX_PREVIOUS_SECRETS = 3;

/** Standard Webhooks receivers reject timestamps further than this from their clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

/** Recent attempts kept per subscription for `GET /v1/webhooks/{id}/deliveries`. */
export const MAX_DELIVERY_RECORDS = 50;

/** Delivery ids remembered after completion, so a bus redelivery of the same event is dropped. */
export const MAX_REMEMBERED_DELIVERIES = 256;
