import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Verifies `X-SERVICE-Signature`: lowercase hex HMAC-SHA256 of the raw request body, keyed
 * with the whole `whsec_...` secret as UTF-8 (SPEC Authentication 5, DECISIONS 5).
 * Pass the body exactly as received: re-serialising parsed JSON changes bytes and fails.
 */
export function verifyServiceSignature(rawBody: string | Uint8Array, signatureHeader: string | null | undefined, secret: string): boolean {
  if (!signatureHeader || !/^[0-9a-f]{64}$/i.test(signatureHeader.trim())) return false;
  const expected = createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody)
    .digest();
  const given = Buffer.from(signatureHeader.trim().toLowerCase(), "hex");
  // Equal lengths are guaranteed by the format check above; timingSafeEqual throws otherwise.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface WebhookEnvelope {
  readonly event: string;
  readonly timestamp: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** Verifies, then parses the envelope; throws on a bad signature so it cannot be skipped by accident. */
export function parseVerifiedWebhook(rawBody: string, signatureHeader: string | null | undefined, secret: string): WebhookEnvelope {
  if (!verifyServiceSignature(rawBody, signatureHeader, secret)) throw new Error("Invalid X-SERVICE-Signature");
  const parsed: unknown = JSON.parse(rawBody);
  if (typeof parsed !== "object" || parsed === null) throw new Error("Webhook body is not a JSON object");
  const { event, timestamp, data } = parsed as Record<string, unknown>;
  if (typeof event !== "string" || typeof timestamp !== "string" || typeof data !== "object" || data === null) {
    throw new Error("Webhook body is not an event envelope");
  }
  return { event, timestamp, data: data as Record<string, unknown> };
}
