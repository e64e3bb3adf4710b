import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createBlindIndex } from "../../../src/sealing/blind-index.js";
import { SUBSCRIBER_DATA_USAGE } from "../../../src/sealing/sealed-newsletter.js";
import { KEY_OWNER_USAGE, openOwner } from "../../../src/sealing/sealed-api-keys.js";
import type { ApiKeyRecord } from "../../../src/store/ports/api-keys.js";
import { createSecretSealer, SecretUnsealError } from "../../../src/sealing/secret-sealer.js";

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
  const personal = createSecretSealer([k1], SUBSCRIBER_DATA_USAGE);

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
    const stored = createSecretSealer([key("old")], SUBSCRIBER_DATA_USAGE).seal("carol@example.org", "row");
    expect(() => personal.unseal(stored, "row")).toThrow(/subscriber's personal data sealed with key "old", which PERSONAL_DATA_KEYS does not name/);
  });
});

describe("a key's owner fields", () => {
  const k1 = key("k1");
  const sealer = createSecretSealer([k1], KEY_OWNER_USAGE);
  const record = (over: Partial<ApiKeyRecord>): ApiKeyRecord => ({
    id: "key-2", usageId: "lineage-1", hash: "h".repeat(64), prefix: "svc_free_abcd", tier: "free",
    name: null, email: null, active: true, createdAt: "2026-12-01T00:00:00.000Z", deactivatedAt: null, ...over,
  });

  it("open for every key of the lineage they were sealed for, and read as given when stored before sealing", () => {
    const failures: string[] = [];
    const sealed = record({ name: sealer.seal("Dana", "lineage-1"), email: sealer.seal("dana@example.org", "lineage-1") });
    expect(openOwner(sealed, sealer, (id) => failures.push(id))).toMatchObject({ name: "Dana", email: "dana@example.org" });
    expect(openOwner(record({ name: "As Given", email: "as.given@example.org" }), sealer, (id) => failures.push(id))).toMatchObject({ name: "As Given", email: "as.given@example.org" });
    expect(failures).toEqual([]);
  });

  it("typed before sealing in the sealed value's form are read as typed; only the exact shape a seal makes is opened", () => {
    const failures: string[] = [];
    const lookalike = record({ name: "sealed.v1.k1.Mallory", email: "sealed.v1.k1.mallory@example.org" });
    expect(openOwner(lookalike, sealer, (id) => failures.push(id))).toMatchObject({ name: "sealed.v1.k1.Mallory", email: "sealed.v1.k1.mallory@example.org" });
    expect(sealer.keyIdOf("sealed.v1.k1.mallory@example.org")).toBeNull();
    // A sealed value altered in place keeps the shape: it is still refused, not read as typed.
    const real = sealer.seal("dana@example.org", "lineage-1");
    const altered = real.slice(0, -2) + (real.endsWith("AA") ? "BB" : "AA");
    expect(sealer.keyIdOf(altered)).toBe("k1");
    expect(openOwner(record({ email: altered }), sealer, (id) => failures.push(id)).email).toBeNull();
    expect(failures).toEqual(["key-2"]);
  });

  it("read as null, and are reported by key id, when copied onto another lineage or sealed under a key no longer listed", () => {
    const failures: string[] = [];
    const copied = record({ usageId: "lineage-2", email: sealer.seal("dana@example.org", "lineage-1") });
    expect(openOwner(copied, sealer, (id) => failures.push(id)).email).toBeNull();
    const orphan = record({ name: createSecretSealer([key("old")], KEY_OWNER_USAGE).seal("Dana", "lineage-1") });
    expect(openOwner(orphan, sealer, (id) => failures.push(id)).name).toBeNull();
    expect(failures).toEqual(["key-2", "key-2"]);
  });
});
