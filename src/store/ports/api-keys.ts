import type { Tier } from "../../domain/access/tiers.js";

/** A stored API key: never the key itself, only its SHA-256 hash and a display prefix. */
export interface ApiKeyRecord {
  readonly id: string;
  /**
   * Whose usage this key's requests count against: its own id when generated, its predecessor's
   * when rotated. Quotas and rate limits are counted per usage id, so rotating a key does not
   * hand it a fresh daily quota.
   */
  readonly usageId: string;
  readonly hash: string;
  readonly prefix: string;
  readonly tier: Tier;
  readonly name: string | null;
  readonly email: string | null;
  readonly active: boolean;
  readonly createdAt: string;
  readonly deactivatedAt: string | null;
}

export interface ApiKeyRepository {
  create(record: ApiKeyRecord): Promise<void>;
  findByHash(hash: string): Promise<ApiKeyRecord | null>;
  findById(id: string): Promise<ApiKeyRecord | null>;
  /**
   * The active key of a lineage (keys sharing a usage id: a key and its rotations), null when the
   * lineage has none left. Webhook subscriptions belong to a lineage, so they follow rotations
   * and stop when its last key is deactivated.
   */
  findActiveByUsageId(usageId: string): Promise<ApiKeyRecord | null>;
  /** Marks the key inactive; false when no active key has that hash. */
  deactivate(hash: string, at: string): Promise<boolean>;
  /** Creates `next` and deactivates `previous` (atomically where the store has transactions). */
  rotate(previousHash: string, next: ApiKeyRecord, at: string): Promise<boolean>;
  list(): Promise<ApiKeyRecord[]>;
  /**
   * Writes a key's owner fields again (the name and e-mail given at generation, sealed under
   * another key: src/sealing/sealed-api-keys.ts); nothing else of the key changes. With
   * `expected`, only while the stored fields still equal it (as read before sealing them anew:
   * an erasure that cleared them meanwhile must not be undone). Answers whether it wrote.
   */
  rewriteOwner(id: string, name: string | null, email: string | null, expected?: OwnerFields): Promise<boolean>;
}

/** A key's owner fields as stored. */
export interface OwnerFields {
  readonly name: string | null;
  readonly email: string | null;
}
