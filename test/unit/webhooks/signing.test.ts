import { createHmac, randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { deliveryHeaders, serviceSignature } from "../../../src/domain/webhooks/signing.js";
import { generateSecret, isWellFormedSecret } from "../../../src/domain/webhooks/secret.js";
import { verifyServiceSignature, verifyStandardSignature } from "../../support/webhooks/verification.js";

const body = JSON.stringify({ event: "verdict.new", timestamp: "2026-01-01T00:00:00.000Z", data: { ruling: "BUY" } });

function sign(secret: string, nowMs: number, previous: readonly string[] = []): Record<string, string> {
  return deliveryHeaders({
    deliveryId: "msg_abc",
    eventType: "verdict.new",
    timestampSeconds: Math.floor(nowMs / 1000),
    body,
    secrets: { current: secret, previous },
  });
}

describe("webhook secrets", () => {
  it("are whsec_ plus 32 base64 characters of 24 random bytes, all different", () => {
    const secrets = new Set(Array.from({ length: 50 }, () => generateSecret(randomBytes)));
    expect(secrets.size).toBe(50);
    for (const s of secrets) {
      expect(isWellFormedSecret(s)).toBe(true);
      expect(Buffer.from(s.slice(6), "base64")).toHaveLength(24);
    }
  });
});

describe("X-SERVICE-Signature", () => {
  const secret = generateSecret(randomBytes);

  it("is lowercase hex HMAC-SHA256 of the raw body keyed with the whole secret string", () => {
    const expected = createHmac("sha256", secret).update(body).digest("hex");
    expect(serviceSignature(body, secret)).toBe(expected);
    expect(sign(secret, Date.now())["x-service-signature"]).toBe(expected);
  });

  it("round-trips and rejects a tampered body, another secret or a missing header", () => {
    const header = serviceSignature(body, secret);
    expect(verifyServiceSignature(body, header, secret)).toBe(true);
    expect(verifyServiceSignature(body.replace("BUY", "SELL"), header, secret)).toBe(false);
    expect(verifyServiceSignature(body + " ", header, secret)).toBe(false);
    expect(verifyServiceSignature(body, header, generateSecret(randomBytes))).toBe(false);
    expect(verifyServiceSignature(body, undefined, secret)).toBe(false);
    expect(verifyServiceSignature(body, header.slice(1), secret)).toBe(false);
  });
});

describe("Standard Webhooks signature", () => {
  const secret = generateSecret(randomBytes);

  it("carries the headers of DECISIONS 5 and verifies with the official library", () => {
    const now = Date.now();
    const headers = sign(secret, now);
    expect(headers["webhook-id"]).toBe("msg_abc");
    expect(headers["x-service-delivery"]).toBe("msg_abc");
    expect(headers["x-service-event"]).toBe("verdict.new");
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(now / 1000)));
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(verifyStandardSignature(body, headers, secret, now)).toEqual({ ok: true });
  });

  it("rejects a tampered body, id or timestamp (library and own verifier alike)", () => {
    const now = Date.now();
    const headers = sign(secret, now);
    const tamperedBody = body.replace("BUY", "SELL");
    const shiftedStamp = { ...headers, "webhook-timestamp": String(Math.floor(now / 1000) - 1) };
    const otherId = { ...headers, "webhook-id": "msg_other" };
    for (const [b, h] of [
      [tamperedBody, headers],
      [body, shiftedStamp],
      [body, otherId],
    ] as const) {
      expect(() => new Webhook(secret).verify(b, h)).toThrow();
      expect(verifyStandardSignature(b, h, secret, now)).toEqual({ ok: false, reason: "no_matching_signature" });
    }
  });

  it("stamps each attempt so that a receiver's Standard Webhooks library refuses a replay after 5 minutes", () => {
    // The library reads the wall clock: an attempt signed 4 minutes ago still verifies, one
    // signed 5 minutes and a second ago is refused, whatever its signature.
    expect(new Webhook(secret).verify(body, sign(secret, Date.now() - 240_000))).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body, sign(secret, Date.now() - 301_000))).toThrow(/too old/);
    expect(() => new Webhook(secret).verify(body, sign(secret, Date.now() + 301_000))).toThrow(/too new/);
  });

  it("during a rotation carries `v1,<new> v1,<old>`: both secrets verify, X-SERVICE-Signature uses the new", () => {
    const oldSecret = generateSecret(randomBytes);
    const now = Date.now();
    const headers = sign(secret, now, [oldSecret]);
    expect(headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(oldSecret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateSecret(randomBytes)).verify(body, headers)).toThrow();
    expect(verifyServiceSignature(body, headers["x-service-signature"], secret)).toBe(true);
    expect(verifyServiceSignature(body, headers["x-service-signature"], oldSecret)).toBe(false);
  });
});
