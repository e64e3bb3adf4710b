import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createBlindIndex } from "../../../src/privacy/blind-index.js";
import { PERSONAL_DATA_USAGE } from "../../../src/privacy/sealed-newsletter.js";
import { createSecretSealer, SecretUnsealError } from "../../../src/webhook-delivery/secret-sealer.js";

const key = (id: string) => ({ id, key: randomBytes(32) });

describe("the blind index of an address", () => {
  const k1 = key("k1");
  const k2 = key("k2");
  const index = createBlindIndex([k1, k2]);

  it("is the same for the same address and key, differs by address, by key and by key material, and never looks like an address", () => {
    const a = index.of("carol@example.org");
    expect(a).toMatch(/^bi1:k1:[A-Za-z0-9_-]{43}$/);
    expect(index.of("carol@example.org")).toBe(a);
    expect(index.of("carol2@example.org")).not.toBe(a);
    expect(createBlindIndex([k2]).of("carol@example.org")).not.toBe(a.replace("k1", "k2"));
    // Another key under the same id gives another index: the id alone does not make it.
    expect(createBlindIndex([key("k1")]).of("carol@example.org")).not.toBe(a);
    expect(a).not.toContain("@");
  });

  it("looks an address up under the first key, the older keys, then as stored before sealing", () => {
    expect(index.candidates("carol@example.org")).toEqual([index.of("carol@example.org"), createBlindIndex([k2]).of("carol@example.org"), "carol@example.org"]);
    expect(index.keyIdOf(index.of("carol@example.org"))).toBe("k1");
    expect(index.keyIdOf("carol@example.org")).toBeNull();
  });
});

describe("a sealer for personal data", () => {
  const k1 = key("k1");
  const personal = createSecretSealer([k1], PERSONAL_DATA_USAGE);

  it("seals whatever a caller typed, a name that looks sealed included, and opens it again", () => {
    const typed = "sealed.v1.k1.not-really";
    const stored = personal.seal(typed, "bi1:k1:row");
    expect(stored).not.toBe(typed);
    expect(personal.unseal(stored, "bi1:k1:row")).toBe(typed);
  });

  it("does not open a webhook secret sealed with the same key for the same id, nor the reverse", () => {
    const webhook = createSecretSealer([k1]);
    expect(() => personal.unseal(webhook.seal("whsec_abc", "same-id"), "same-id")).toThrow(SecretUnsealError);
    expect(() => webhook.unseal(personal.seal("carol@example.org", "same-id"), "same-id")).toThrow(SecretUnsealError);
  });

  it("names its own setting when a key is missing", () => {
    const stored = createSecretSealer([key("old")], PERSONAL_DATA_USAGE).seal("carol@example.org", "row");
    expect(() => personal.unseal(stored, "row")).toThrow(/subscriber's personal data sealed with key "old", which PERSONAL_DATA_KEYS does not name/);
  });
});
