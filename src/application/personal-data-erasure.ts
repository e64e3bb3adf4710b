import type { ApiKeyRecord, ApiKeyRepository } from "../store/ports/api-keys.js";
import type { NewsletterRepository } from "../store/ports/newsletter.js";
import { KEY_CACHE_TTL_MS } from "./key-verifier.js";

export interface Erasure {
  readonly subscriberRemoved: boolean;
  /** The key lineages (a key and its rotations) generated with the address, now without owner. */
  readonly lineages: readonly string[];
  /** Keys whose stored name or address was cleared. */
  readonly keysCleared: number;
  /** False when rotations kept writing owner fields back for every pass (then run it again). */
  readonly settled: boolean;
}

export interface ErasureStores {
  readonly newsletter: NewsletterRepository;
  readonly apiKeys: ApiKeyRepository;
}

/**
 * A rotation copies its predecessor's owner fields from the record the key verifier cached, up
 * to KEY_CACHE_TTL_MS old, so a rotation racing with the erasure can write them back onto the
 * successor. Passes after that long (plus a store round trip) see such a successor.
 */
export const ERASURE_SETTLE_MS = KEY_CACHE_TTL_MS + 1000;
const MAX_PASSES = 5;

const holdsOwner = (k: ApiKeyRecord): boolean => k.name !== null || k.email !== null;

/**
 * Forgets what the service stores about one e-mail address (an erasure request): its newsletter
 * subscription, and the owner name and address of every key lineage generated with it. The keys
 * keep working, anonymous: erasing a person's data is not revoking their access (the operator
 * does that with `keys deactivate --lineage`). `address` is in the stored form (trimmed, lower
 * case); keys keep the address as typed, so they are matched without regard to letter case.
 * The lineage's keys are cleared whatever they read as: a field sealed under a key no longer
 * listed reads as null and is still erased.
 */
export async function eraseAddress(stores: ErasureStores, address: string, pause: (ms: number) => Promise<void>): Promise<Erasure> {
  const subscriberRemoved = await stores.newsletter.remove(address);
  const keys = await stores.apiKeys.list();
  const lineages = [...new Set(keys.filter((k) => k.email?.trim().toLowerCase() === address).map((k) => k.usageId))];
  const inLineages = (k: ApiKeyRecord) => lineages.includes(k.usageId);
  if (lineages.length === 0) return { subscriberRemoved, lineages, keysCleared: 0, settled: true };

  let keysCleared = 0;
  for (const k of keys.filter(inLineages)) {
    await stores.apiKeys.rewriteOwner(k.id, null, null);
    if (holdsOwner(k)) keysCleared += 1;
  }
  for (let pass = 1; pass < MAX_PASSES; pass++) {
    await pause(ERASURE_SETTLE_MS);
    const written = (await stores.apiKeys.list()).filter((k) => inLineages(k) && holdsOwner(k));
    if (written.length === 0) return { subscriberRemoved, lineages, keysCleared, settled: true };
    for (const k of written) await stores.apiKeys.rewriteOwner(k.id, null, null);
    keysCleared += written.length;
  }
  return { subscriberRemoved, lineages, keysCleared, settled: false };
}
