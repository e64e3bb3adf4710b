import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSecretSealer, sealKeysSetting, SecretUnsealError, type SealKey } from "../../../src/sealing/secret-sealer.js";
import { loadConfig } from "../../../src/config/env.js";

const key = (id: string): SealKey => ({ id, key: randomBytes(32) });
const SECRET = `whsec_${"Q".repeat(32)}`;

function unsealError(run: () => unknown): SecretUnsealError {
  try {
    run();
  } catch (err) {
    if (err instanceof SecretUnsealError) return err;
    throw err;
  }
  throw new Error("opened");
}

describe("sealing webhook secrets", () => {
  it("seals with the first key, a fresh nonce per new seal, and opens with any key listed", () => {
    const k1 = key("k1");
    const k2 = key("k2");
    const old = createSecretSealer([k1]);
    const sealedByK1 = old.seal(SECRET, "wh_a");
    expect(sealedByK1).toMatch(/^sealed\.v1\.k1\.[A-Za-z0-9_-]+$/);
    expect(sealedByK1).not.toContain(SECRET.slice(6));
    // Another process seals the same secret under another nonce; this one writes back what it
    // sealed (the same message, not a nonce reused), and another subscription gets its own.
    expect(createSecretSealer([k1]).seal(SECRET, "wh_a")).not.toBe(sealedByK1);
    expect(old.seal(SECRET, "wh_a")).toBe(sealedByK1);
    expect(old.seal(SECRET, "wh_b")).not.toBe(sealedByK1);

    const both = createSecretSealer([k2, k1]);
    expect(both.sealingKeyId).toBe("k2");
    expect(both.unseal(sealedByK1, "wh_a")).toBe(SECRET);
    // Opened from the old key, written under the new one (the key replacement).
    expect(both.keyIdOf(both.seal(SECRET, "wh_a"))).toBe("k2");
    // Opened from the key that seals: written back as it was.
    const reader = createSecretSealer([k1]);
    expect(reader.unseal(sealedByK1, "wh_a")).toBe(SECRET);
    expect(reader.seal(SECRET, "wh_a")).toBe(sealedByK1);
    expect(both.keyIdOf(SECRET)).toBeNull();
  });

  it("leaves a secret stored as issued readable, and stores as issued without keys", () => {
    expect(createSecretSealer([key("k1")]).unseal(SECRET, "wh_a")).toBe(SECRET);
    const none = createSecretSealer([]);
    expect(none.sealingKeyId).toBeNull();
    expect(none.seal(SECRET, "wh_a")).toBe(SECRET);
  });

  it("does not seal twice what it reads back sealed", () => {
    const sealer = createSecretSealer([key("k1")]);
    const once = sealer.seal(SECRET, "wh_a");
    expect(sealer.seal(once, "wh_a")).toBe(once);
  });

  it("refuses a value sealed for another subscription, altered, cut short, or under a key not listed", () => {
    const k1 = key("k1");
    const sealer = createSecretSealer([k1]);
    const sealed = sealer.seal(SECRET, "wh_a");
    expect(sealer.unseal(sealed, "wh_a")).toBe(SECRET);
    expect(unsealError(() => sealer.unseal(sealed, "wh_b")).reason).toBe("not_authentic");
    expect(unsealError(() => createSecretSealer([k1]).unseal(sealed, "wh_b")).reason).toBe("not_authentic");

    const body = sealed.slice("sealed.v1.k1.".length);
    // One full 6-bit character changed, always to another: the one before the last (the last may
    // carry padding bits). Choosing by that character itself, not by its neighbour, so the value
    // is never written back unchanged (it was in 345 of 20,000 fresh seals, about one run in 58).
    const at = body.length - 2;
    const flipped = body.slice(0, at) + (body[at] === "A" ? "B" : "A") + body.slice(at + 1);
    expect(flipped).not.toBe(body);
    expect(unsealError(() => sealer.unseal(`sealed.v1.k1.${flipped}`, "wh_a")).reason).toBe("not_authentic");
    expect(unsealError(() => sealer.unseal("sealed.v1.k1.AAAA", "wh_a")).reason).toBe("malformed");
    expect(unsealError(() => sealer.unseal("sealed.v1.k1", "wh_a")).reason).toBe("malformed");

    const other = createSecretSealer([key("k2")]);
    const missing = unsealError(() => other.unseal(sealed, "wh_a"));
    expect(missing.reason).toBe("unknown_key");
    expect(missing.message).toBe('webhook secret sealed with key "k1", which WEBHOOK_SECRET_KEYS does not name');
    // Same id, other key material (a key replaced under its old name): refused, not garbage.
    expect(unsealError(() => createSecretSealer([key("k1")]).unseal(sealed, "wh_a")).reason).toBe("not_authentic");
  });
});

describe("WEBHOOK_SECRET_KEYS", () => {
  const b64 = randomBytes(32).toString("base64");

  it("reads id:key pairs in order", () => {
    const keys = sealKeysSetting.parse(` k2:${b64} , k1:${randomBytes(32).toString("base64")}`);
    expect(keys.map((k) => k.id)).toEqual(["k2", "k1"]);
    expect(keys[0]?.key.equals(Buffer.from(b64, "base64"))).toBe(true);
  });

  it.each([
    ["a key of 16 bytes", `k1:${randomBytes(16).toString("base64")}`, 'key "k1" must be 32 bytes in base64'],
    ["a key that is not base64", `k1:${"!".repeat(44)}`, 'key "k1" must be 32 bytes in base64'],
    ["no id", b64, "each entry must be id:key"],
    ["an id with a dot", `k.1:${b64}`, "each entry must be id:key"],
    ["one id twice", `k1:${b64},k1:${b64}`, "key ids must differ"],
    ["nothing", " , ", "must name at least one id:key"],
  ])("refuses %s at start-up without echoing the key", (_what, value, message) => {
    let thrown: unknown = null;
    try {
      loadConfig({ WEBHOOK_SECRET_KEYS: value });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(Error);
    const text = (thrown as Error).message;
    expect(text).toContain("WEBHOOK_SECRET_KEYS");
    expect(text).toContain(message);
    expect(text).not.toContain(b64);
  });
});
