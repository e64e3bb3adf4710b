import type { ApiKeyRecord, ApiKeyRepository } from "../store/ports/api-keys.js";
import type { SealUsage, SecretSealer } from "./secret-sealer.js";

/**
 * The name and e-mail address a key was generated with (PERSONAL_DATA_KEYS). Bound to the key's
 * lineage (its usage id), which a rotation keeps, so the successor carries the same sealed
 * values and a value copied onto another lineage's key does not open there.
 */
export const KEY_OWNER_USAGE: SealUsage = {
  context: "api-key-owner",
  what: "key owner's personal data",
  setting: "PERSONAL_DATA_KEYS",
  owner: "key lineage",
  passesSealedThrough: false,
};

/** Told of each key whose owner fields could not be opened (its id, never the fields). */
export type KeyOwnerUnsealFailure = (keyId: string, err: unknown) => void;

const sealedOwner = (r: ApiKeyRecord, sealer: SecretSealer): ApiKeyRecord => ({
  ...r,
  name: r.name === null ? null : sealer.seal(r.name, r.usageId),
  email: r.email === null ? null : sealer.seal(r.email, r.usageId),
});

/**
 * The key's owner fields opened. One that does not open reads as null: a key authenticates by
 * its hash, and its owner's sealed name must never turn its caller away; the operator is told.
 * A value not in the sealed form was stored before sealing and is read as it is.
 */
export function openOwner(r: ApiKeyRecord, sealer: SecretSealer, onFailure: KeyOwnerUnsealFailure): ApiKeyRecord {
  const open = (value: string | null): string | null => {
    if (value === null || sealer.keyIdOf(value) === null) return value;
    try {
      return sealer.unseal(value, r.usageId);
    } catch (err) {
      onFailure(r.id, err);
      return null;
    }
  };
  return { ...r, name: open(r.name), email: open(r.email) };
}

/**
 * The API key repository with owner fields sealed, on either store: every write seals, every
 * read opens. The hash, prefix, tier and dates stay as they are: they are what a request is
 * authenticated and counted by, and none of them is personal. Opening on the request path costs
 * a map lookup once a value was opened (the sealer remembers it).
 */
export function sealedApiKeys(inner: ApiKeyRepository, sealer: SecretSealer, onFailure: KeyOwnerUnsealFailure): ApiKeyRepository {
  const openOne = (r: ApiKeyRecord | null) => (r === null ? null : openOwner(r, sealer, onFailure));
  return {
    create: (r) => inner.create(sealedOwner(r, sealer)),
    findByHash: async (hash) => openOne(await inner.findByHash(hash)),
    findById: async (id) => openOne(await inner.findById(id)),
    findActiveByUsageId: async (usageId) => openOne(await inner.findActiveByUsageId(usageId)),
    deactivate: (hash, at) => inner.deactivate(hash, at),
    rotate: (previousHash, next, at) => inner.rotate(previousHash, sealedOwner(next, sealer), at),
    list: async () => (await inner.list()).map((r) => openOwner(r, sealer, onFailure)),
    rewriteOwner: (id, name, email, expected) => inner.rewriteOwner(id, name, email, expected),
  };
}

/**
 * Seals again every key whose owner fields are stored as given or under another key than the
 * first; a field that does not open is left as it is. Returns how many keys were rewritten.
 */
export async function resealKeyOwners(inner: ApiKeyRepository, sealer: SecretSealer, onFailure: KeyOwnerUnsealFailure): Promise<{ keys: number; sealedAgain: number; unreadable: number }> {
  const first = sealer.sealingKeyId;
  const records = await inner.list();
  let sealedAgain = 0;
  let unreadable = 0;
  for (const r of records) {
    const fields = [r.name, r.email].filter((v): v is string => v !== null);
    if (fields.every((v) => sealer.keyIdOf(v) === first)) continue;
    let failed = false;
    const opened = openOwner(r, sealer, (id, err) => {
      failed = true;
      onFailure(id, err);
    });
    if (failed) {
      unreadable += 1;
      continue;
    }
    const again = sealedOwner(opened, sealer);
    // Only over what was read: an erasure that cleared the fields since stays done.
    if (await inner.rewriteOwner(r.id, again.name, again.email, { name: r.name, email: r.email })) sealedAgain += 1;
  }
  return { keys: records.length, sealedAgain, unreadable };
}
