import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomInt } from "node:crypto";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import { KeyVerifier } from "../../../src/application/key-verifier.js";
import { KeyIssuer } from "../../../src/application/key-issuer.js";
import { generateApiKey, hashApiKey } from "../../../src/domain/access/api-key.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";
import { freshStoreUrl, type StoreKind } from "../../support/service.js";

describe.each<StoreKind>(["sqlite", "mongodb"])("key look-ups on %s", (kind) => {
  let store: Store;
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 10));
  beforeAll(async () => {
    store = await openStore(freshStoreUrl(kind, "keys"));
  });
  afterAll(() => store.close());

  it("answers a key's requests arriving together, and hides a deactivation for at most 2 s", async () => {
    const verifier = new KeyVerifier(store.apiKeys, clock);
    const { apiKey } = await new KeyIssuer(store.apiKeys, clock).create("pro", "k", null);
    const verdicts = await Promise.all(Array.from({ length: 50 }, () => verifier.verify(apiKey)));
    expect(verdicts.every((v) => v.status === "valid")).toBe(true);
    // Deactivated elsewhere (the CLI, another replica): this process learns it within 2 s.
    expect(await store.apiKeys.deactivate(hashApiKey(apiKey), new Date(clock.now()).toISOString())).toBe(true);
    expect((await verifier.verify(apiKey)).status).toBe("valid");
    clock.advance(2_000);
    expect((await verifier.verify(apiKey)).status).toBe("disabled");
  });

  it("keeps a real key cached through a flood of random well-formed keys", async () => {
    const verifier = new KeyVerifier(store.apiKeys, clock, 2000, 100, 10);
    const { apiKey } = await new KeyIssuer(store.apiKeys, clock).create("basic", "k", null);
    expect((await verifier.verify(apiKey)).status).toBe("valid");
    const flood = await Promise.all(Array.from({ length: 200 }, () => verifier.verify(generateApiKey("free", randomInt))));
    expect(flood.every((v) => v.status === "not_found")).toBe(true);
    // Deactivated in the store: a process still answering from its cache says valid, which is
    // how this shows the real key's entry outlived the flood (one that lost it reads the store).
    await store.apiKeys.deactivate(hashApiKey(apiKey), new Date(clock.now()).toISOString());
    expect((await verifier.verify(apiKey)).status).toBe("valid");
    clock.advance(2_000);
    expect((await verifier.verify(apiKey)).status).toBe("disabled");
  });

  it("does not let a look-up in flight when its key is forgotten fill the cache", async () => {
    const verifier = new KeyVerifier(store.apiKeys, clock);
    const { apiKey } = await new KeyIssuer(store.apiKeys, clock).create("basic", "k", null);
    const inFlight = verifier.verify(apiKey);
    await store.apiKeys.deactivate(hashApiKey(apiKey), new Date(clock.now()).toISOString());
    verifier.forget(apiKey);
    await inFlight;
    expect((await verifier.verify(apiKey)).status).toBe("disabled");
  });
});
