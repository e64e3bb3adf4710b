import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isEvent, parseStandardWebhook, parseVerifiedWebhook, verifyServiceSignature, verifyStandardWebhook } from "../../../sdk/webhooks.js";
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

  describe("the Standard Webhooks signature", () => {
    const stamped = 1_767_225_600;
    const at = (seconds: number) => () => seconds * 1000;
    const oldSecret = `whsec_${randomBytes(24).toString("base64")}`;
    const rotating = deliveryHeaders({ deliveryId: "msg_1", eventType: "verdict.new", timestampSeconds: stamped, body, secrets: { current: secret, previous: [oldSecret] } });

    it("verifies with the new secret and, during a rotation, with the old one too; X-SERVICE-Signature only with the new", () => {
      expect(verifyStandardWebhook(body, rotating, secret, { now: at(stamped) })).toBe(true);
      expect(verifyStandardWebhook(body, rotating, oldSecret, { now: at(stamped) })).toBe(true);
      expect(verifyStandardWebhook(Buffer.from(body, "utf8"), new Headers(rotating), [`whsec_${randomBytes(24).toString("base64")}`, oldSecret], { now: at(stamped) })).toBe(true);
      expect(verifyServiceSignature(body, rotating["x-service-signature"], oldSecret)).toBe(false);
      const parsed = parseStandardWebhook(body, rotating, oldSecret, { now: at(stamped) });
      expect(parsed).toMatchObject({ event: "verdict.new", data: { ruling: "HOLD" } });
      expect(isEvent(parsed, "ghost.signal")).toBe(false);
      if (!isEvent(parsed, "verdict.new")) throw new Error("a verdict.new");
      // Typed after narrowing: the ruling is a Ruling, not unknown.
      const ruling: string = parsed.data.ruling;
      expect(ruling).toBe("HOLD");
    });

    it("refuses a delivery stamped outside the tolerance, so a captured one cannot be replayed later", () => {
      expect(verifyStandardWebhook(body, rotating, secret, { now: at(stamped + 300) })).toBe(true);
      expect(verifyStandardWebhook(body, rotating, secret, { now: at(stamped + 301) })).toBe(false);
      expect(verifyStandardWebhook(body, rotating, secret, { now: at(stamped - 301) })).toBe(false);
      expect(verifyStandardWebhook(body, rotating, secret, { now: at(stamped + 3_600), toleranceSeconds: 7_200 })).toBe(true);
      expect(() => parseStandardWebhook(body, rotating, secret, { now: at(stamped + 86_400) })).toThrow(/Invalid or stale webhook-signature/);
    });

    it("refuses a changed body, a changed id or stamp, another secret and missing headers", () => {
      const now = { now: at(stamped) };
      expect(verifyStandardWebhook(body.replace("HOLD", "BUY"), rotating, secret, now)).toBe(false);
      expect(verifyStandardWebhook(body, { ...rotating, "webhook-id": "msg_2" }, secret, now)).toBe(false);
      expect(verifyStandardWebhook(body, { ...rotating, "webhook-timestamp": String(stamped + 1) }, secret, now)).toBe(false);
      expect(verifyStandardWebhook(body, rotating, `whsec_${randomBytes(24).toString("base64")}`, now)).toBe(false);
      for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
        const without: Record<string, string> = { ...rotating };
        delete without[name];
        expect(verifyStandardWebhook(body, without, secret, now)).toBe(false);
      }
      expect(verifyStandardWebhook(body, { ...rotating, "webhook-signature": "v2,abc v1," }, secret, now)).toBe(false);
    });

    it("verifies nothing with a secret not of the issued form: an empty one would key the HMAC with nothing", () => {
      const now = { now: at(stamped) };
      for (const empty of ["", "whsec_", "whsec_!!!"]) {
        const forged = deliveryHeaders({ deliveryId: "msg_1", eventType: "verdict.new", timestampSeconds: stamped, body, secrets: { current: empty, previous: [] } });
        expect(verifyStandardWebhook(body, forged, empty, now), JSON.stringify(empty)).toBe(false);
        expect(verifyStandardWebhook(body, forged, [secret, empty], now), JSON.stringify(empty)).toBe(false);
        expect(verifyServiceSignature(body, forged["x-service-signature"], empty), JSON.stringify(empty)).toBe(false);
      }
    });

    it("refuses when the clock or the tolerance is not a number, instead of letting any stamp through", () => {
      expect(verifyStandardWebhook(body, rotating, secret, { now: at(stamped + 86_400), toleranceSeconds: Number(undefined) })).toBe(false);
      expect(verifyStandardWebhook(body, rotating, secret, { now: () => Number.NaN })).toBe(false);
    });

    it("reads headers in any case, and a signature header split in two", () => {
      const now = { now: at(stamped) };
      const upper = Object.fromEntries(Object.entries(rotating).map(([k, v]) => [k.replace(/(^|-)([a-z])/g, (_m, d: string, c: string) => d + c.toUpperCase()), v]));
      expect(verifyStandardWebhook(body, upper, oldSecret, now)).toBe(true);
      const [first = "", second = ""] = (rotating["webhook-signature"] ?? "").split(" ");
      expect(verifyStandardWebhook(body, { ...rotating, "webhook-signature": [first, second] }, oldSecret, now)).toBe(true);
    });
  });
});
