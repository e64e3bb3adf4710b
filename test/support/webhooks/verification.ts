import { timingSafeEqual } from "node:crypto";
import { SIGNATURE_TOLERANCE_SECONDS } from "../../../src/domain/webhooks/limits.js";
import { serviceSignature, standardSignature } from "../../../src/domain/webhooks/signing.js";

/** Constant-time equality of two ASCII strings; unequal lengths leak only the length. */
function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Receiver-side check of `X-SERVICE-Signature` over the raw body, in constant time
 * (SPEC Authentication 5). A missing header is a mismatch.
 */
export function verifyServiceSignature(rawBody: string, header: string | undefined, secret: string): boolean {
  if (header === undefined) return false;
  return safeEqual(serviceSignature(rawBody, secret), header.trim().toLowerCase());
}

export type StandardVerifyResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: "missing_headers" | "timestamp_out_of_range" | "no_matching_signature" };

export interface StandardHeaders {
  readonly "webhook-id"?: string | undefined;
  readonly "webhook-timestamp"?: string | undefined;
  readonly "webhook-signature"?: string | undefined;
}

/**
 * Standard Webhooks verification with an injected clock (the official `standardwebhooks`
 * library reads Date.now(); this one can run on a test clock). Rejects stale or future
 * timestamps, so a captured delivery cannot be replayed later.
 */
export function verifyStandardSignature(
  rawBody: string,
  headers: StandardHeaders,
  secret: string,
  nowMs: number,
  toleranceSeconds: number = SIGNATURE_TOLERANCE_SECONDS,
): StandardVerifyResult {
  const id = headers["webhook-id"];
  const stamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (!id || !stamp || !signatures) return { ok: false, reason: "missing_headers" };
  const seconds = Number(stamp);
  if (!/^\d+$/.test(stamp) || Math.abs(Math.floor(nowMs / 1000) - seconds) > toleranceSeconds) {
    return { ok: false, reason: "timestamp_out_of_range" };
  }
  const expected = standardSignature(id, seconds, rawBody, secret);
  // Any listed v1 signature may match: during a rotation the header carries two.
  const matched = signatures.split(" ").some((candidate) => candidate.startsWith("v1,") && safeEqual(candidate, expected));
  return matched ? { ok: true } : { ok: false, reason: "no_matching_signature" };
}
