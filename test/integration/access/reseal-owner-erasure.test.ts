import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KEY_OWNER_USAGE, resealKeyOwners } from "../../../src/sealing/sealed-api-keys.js";
import { createSecretSealer } from "../../../src/sealing/secret-sealer.js";
import { openStore } from "../../../src/store/open-store.js";
import type { Store } from "../../../src/store/store.js";
import type { ApiKeyRepository } from "../../../src/store/ports/api-keys.js";
import { freshStoreUrl, type StoreKind } from "../../support/service.js";

/**
 * The start-up re-seal of key owners reads every key, then writes each one's fields sealed anew.
 * An erasure (`privacy erase`, run while a replica restarts) that clears the fields between the
 * two must stay done: the re-seal wrote the erased name and address back, after the erasure had
 * reported itself settled.
 */
describe.each<StoreKind>(["sqlite", "mongodb"])("re-sealing key owners beside an erasure, on %s", (kind) => {
  let store: Store;
  beforeEach(async () => {
    store = await openStore(freshStoreUrl(kind, "reseal-erasure"));
  });
  afterEach(async () => {
    await store.close();
  });

  it("does not write back owner fields an erasure cleared after they were read", async () => {
    await store.apiKeys.create({
      id: "erased",
      usageId: "erased",
      hash: "e".repeat(64),
      prefix: "svc_free_abcd",
      tier: "free",
      name: "Erin",
      email: "erin@example.org",
      active: true,
      createdAt: "2026-01-01T00:00:00.000Z",
      deactivatedAt: null,
    });
    // The real repository, with the erasure landing right after the re-seal's read.
    const raced: ApiKeyRepository = Object.assign(Object.create(store.apiKeys) as ApiKeyRepository, {
      list: async () => {
        const read = await store.apiKeys.list();
        await store.apiKeys.rewriteOwner("erased", null, null);
        return read;
      },
    });
    const sealer = createSecretSealer([{ id: "k1", key: randomBytes(32) }], KEY_OWNER_USAGE);
    const report = await resealKeyOwners(raced, sealer, () => expect.unreachable("fields stored as given always open"));
    expect(report).toMatchObject({ keys: 1, sealedAgain: 0, unreadable: 0 });
    expect(await store.apiKeys.findById("erased")).toMatchObject({ name: null, email: null });
  });
});
