import { createHmac, timingSafeEqual } from "node:crypto";
import type { WebhookEventData } from "./types.js";

/**
 * Verifies `X-SERVICE-Signature`: lowercase hex HMAC-SHA256 of the raw request body, keyed
 * with the whole `whsec_...` secret as UTF-8 (SPEC Authentication 5, DECISIONS 5).
 * Pass the body exactly as received: re-serialising parsed JSON changes bytes and fails.
 * This header is signed with the current secret only and carries no time: after a rotation the
 * old secret no longer verifies it, and a captured delivery verifies for ever. Prefer
 * `verifyStandardWebhook`, which has neither gap.
 */
export function verifyServiceSignature(rawBody: string | Uint8Array, signatureHeader: string | null | undefined, secret: string): boolean {
  if (!isSecret(secret)) return false;
  if (!signatureHeader || !/^[0-9a-f]{64}$/i.test(signatureHeader.trim())) return false;
  const expected = createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody)
    .digest();
  const given = Buffer.from(signatureHeader.trim().toLowerCase(), "hex");
  // Equal lengths are guaranteed by the format check above; timingSafeEqual throws otherwise.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A secret as the service issues it: `whsec_` + 32 base64 characters (24 random bytes). Anything
 * else is refused before any HMAC: an empty secret (a `MIS_WEBHOOK_SECRET=` line in an env file)
 * or `whsec_` alone would key the HMAC with nothing, and anyone can sign with nothing.
 */
const SECRET_FORMAT = /^whsec_[A-Za-z0-9+/]{32}$/;

function isSecret(secret: string): boolean {
  return SECRET_FORMAT.test(secret);
}

export interface WebhookEnvelope {
  readonly event: string;
  readonly timestamp: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** A verified envelope of a known event, its `data` typed (sdk/types.ts, the OpenAPI `webhooks`). */
export type TypedWebhookEnvelope<E extends keyof WebhookEventData> = { readonly event: E; readonly timestamp: string; readonly data: WebhookEventData[E] };

/**
 * Narrows a verified envelope by its event type: `if (isEvent(env, "ghost.signal")) env.data.pnl_usd`.
 * The signature vouches for the body; an event type the SDK does not know yet is simply not matched.
 */
export function isEvent<E extends keyof WebhookEventData>(envelope: WebhookEnvelope, event: E): envelope is WebhookEnvelope & TypedWebhookEnvelope<E> {
  return envelope.event === event;
}

/** Verifies, then parses the envelope; throws on a bad signature so it cannot be skipped by accident. */
export function parseVerifiedWebhook(rawBody: string, signatureHeader: string | null | undefined, secret: string): WebhookEnvelope {
  if (!verifyServiceSignature(rawBody, signatureHeader, secret)) throw new Error("Invalid X-SERVICE-Signature");
  return envelopeOf(rawBody);
}

/** How far `webhook-timestamp` may lie from the receiver's clock, as Standard Webhooks' libraries allow. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

/** Request headers as Node (`req.headers`, lower-case names) or Fetch (`Headers`) hand them over. */
export type ReceivedHeaders = { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface StandardVerifyOptions {
  /** Seconds `webhook-timestamp` may lie from now; default 300. */
  readonly toleranceSeconds?: number;
  /** The receiver's clock in epoch ms; default `Date.now`. */
  readonly now?: () => number;
}

/** A header by its lower-case name, in any case; a repeated one joined with spaces (as signatures are). */
function header(headers: ReceivedHeaders, name: string): string | undefined {
  if ("get" in headers && typeof headers.get === "function") return headers.get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return typeof value === "string" ? value : value?.join(" ");
}

/** A Standard Webhooks signing key: the 24 bytes the base64 after `whsec_` encodes. */
function signingKey(secret: string): Buffer {
  return Buffer.from(secret.slice("whsec_".length), "base64");
}

/**
 * Verifies the Standard Webhooks signature (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`; DECISIONS 5). Unlike `X-SERVICE-Signature` it protects against replay: a
 * delivery stamped more than `toleranceSeconds` from now is refused, so a captured one cannot be
 * sent again later. And it verifies across a secret rotation: for 24 h each delivery is signed with
 * the new secret and the old, so a receiver holding either (or both: pass a list) accepts it.
 * Compared in constant time. Pass the body exactly as received. A secret not of the form the
 * service issues (`whsec_` + 32 base64 characters: an empty one, say) verifies nothing.
 */
export function verifyStandardWebhook(rawBody: string | Uint8Array, headers: ReceivedHeaders, secrets: string | readonly string[], options: StandardVerifyOptions = {}): boolean {
  const id = header(headers, "webhook-id");
  const stamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !stamp || !signatures || !/^\d{1,12}$/.test(stamp)) return false;
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  // A NaN clock or tolerance makes every comparison false, which would pass any stamp: refused.
  if (!Number.isFinite(nowSeconds) || !Number.isFinite(tolerance) || tolerance < 0) return false;
  if (Math.abs(nowSeconds - Number(stamp)) > tolerance) return false;
  const body = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody;
  const given = signatures
    .split(" ")
    .filter((s) => s.startsWith("v1,"))
    .map((s) => Buffer.from(s.slice(3), "base64"));
  for (const secret of (typeof secrets === "string" ? [secrets] : secrets).filter(isSecret)) {
    const expected = createHmac("sha256", signingKey(secret)).update(`${id}.${stamp}.`, "utf8").update(body).digest();
    if (given.some((g) => g.length === expected.length && timingSafeEqual(g, expected))) return true;
  }
  return false;
}

/** Verifies the Standard Webhooks signature, then parses the envelope; throws when it does not verify. */
export function parseStandardWebhook(rawBody: string, headers: ReceivedHeaders, secrets: string | readonly string[], options: StandardVerifyOptions = {}): WebhookEnvelope {
  if (!verifyStandardWebhook(rawBody, headers, secrets, options)) throw new Error("Invalid or stale webhook-signature");
  return envelopeOf(rawBody);
}

function envelopeOf(rawBody: string): WebhookEnvelope {
  const parsed: unknown = JSON.parse(rawBody);
  if (typeof parsed !== "object" || parsed === null) throw new Error("Webhook body is not a JSON object");
  const { event, timestamp, data } = parsed as Record<string, unknown>;
  if (typeof event !== "string" || typeof timestamp !== "string" || typeof data !== "object" || data === null) {
    throw new Error("Webhook body is not an event envelope");
  }
  return { event, timestamp, data: data as Record<string, unknown> };
}
