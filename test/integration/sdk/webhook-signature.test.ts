import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseVerifiedWebhook, verifyServiceSignature } from "../../../sdk/webhooks.js";
import { deliveryHeaders } from "../../../src/domain/webhooks/signing.js";

/** Signs like the service's delivery agent does, so the SDK is checked against the real signer. */
function delivered(body: string, secret: string): string {
  const headers = deliveryHeaders({ deliveryId: "d1", eventType: "verdict.new", timestampSeconds: 1_767_225_600, body, secrets: { current: secret, previous: [] } });
  const signature = headers["x-service-signature"];
  if (!signature) throw new Error("no signature header");
  return signature;
}

describe("SDK webhook verification", () => {
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  const body = JSON.stringify({ event: "verdict.new", timestamp: "2026-01-01T00:00:00.000Z", data: { ruling: "HOLD", composite_score: 3, confidence: 0.5, regime: "RISK_ON" } });

  it("accepts the service's signature over the raw body", () => {
    const signature = delivered(body, secret);
    expect(verifyServiceSignature(body, signature, secret)).toBe(true);
    expect(verifyServiceSignature(Buffer.from(body, "utf8"), signature.toUpperCase(), secret)).toBe(true);
    expect(parseVerifiedWebhook(body, signature, secret)).toMatchObject({ event: "verdict.new", data: { ruling: "HOLD" } });
  });

  it("rejects a changed body, another secret, the secret without its prefix and malformed headers", () => {
    const signature = delivered(body, secret);
    expect(verifyServiceSignature(body.replace("HOLD", "BUY"), signature, secret)).toBe(false);
    expect(verifyServiceSignature(JSON.stringify(JSON.parse(body), null, 2), signature, secret)).toBe(false);
    expect(verifyServiceSignature(body, signature, `whsec_${randomBytes(24).toString("base64")}`)).toBe(false);
    expect(verifyServiceSignature(body, signature, secret.slice("whsec_".length))).toBe(false);
    for (const bad of [undefined, null, "", "abc", `${signature}00`, `v1,${signature}`]) expect(verifyServiceSignature(body, bad, secret)).toBe(false);
    expect(() => parseVerifiedWebhook(body, "0".repeat(64), secret)).toThrow(/Invalid X-SERVICE-Signature/);
  });
});
