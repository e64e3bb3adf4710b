import { createHmac } from "node:crypto";
import { standardSigningKey } from "./secret.js";

/** `X-SERVICE-Signature` (SPEC Authentication 5): lowercase hex HMAC-SHA256, key = whole secret. */
export function serviceSignature(body: string, secret: string): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(body, "utf8").digest("hex");
}

/** One Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`. */
export function standardSignature(deliveryId: string, timestampSeconds: number, body: string, secret: string): string {
  const mac = createHmac("sha256", standardSigningKey(secret))
    .update(`${deliveryId}.${timestampSeconds}.${body}`, "utf8")
    .digest("base64");
  return `v1,${mac}`;
}

/** The secrets a delivery is signed with; `previous`: those replaced less than 24 h ago, newest first. */
export interface SigningSecrets {
  readonly current: string;
  readonly previous: readonly string[];
}

export interface SignInput {
  readonly deliveryId: string;
  readonly eventType: string;
  /** Attempt time in Unix seconds: each retry is re-stamped so receivers' tolerance holds. */
  readonly timestampSeconds: number;
  readonly body: string;
  readonly secrets: SigningSecrets;
}

/**
 * Every header a delivery carries (DECISIONS 5). During a rotation `webhook-signature` holds
 * `v1,<new> v1,<old>` (one more per secret replaced within those 24 h) so receivers holding any
 * of them verify; `X-SERVICE-Signature` has room for one signature only and uses the new secret.
 */
export function deliveryHeaders(input: SignInput): Record<string, string> {
  const { deliveryId, timestampSeconds, body, secrets } = input;
  const signatures = [secrets.current, ...secrets.previous].map((secret) => standardSignature(deliveryId, timestampSeconds, body, secret));
  return {
    "content-type": "application/json",
    "x-service-signature": serviceSignature(body, secrets.current),
    "x-service-event": input.eventType,
    "x-service-delivery": deliveryId,
    "webhook-id": deliveryId,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": signatures.join(" "),
  };
}
