import { randomInt, randomUUID } from "node:crypto";
import { generateApiKey, hashApiKey, keyPrefix } from "../domain/access/api-key.js";
import type { Tier } from "../domain/access/tiers.js";
import type { ApiKeyRecord, ApiKeyRepository } from "../store/ports/api-keys.js";
import type { Clock } from "../runtime/clocks/clock.js";

export interface IssuedKey {
  readonly apiKey: string;
  readonly record: ApiKeyRecord;
}

/** Creates keys; the plain key leaves this function once and is never stored. */
export class KeyIssuer {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
  ) {}

  /** A new record; `usageId` continues a rotated key's usage, a new key starts its own. */
  draft(tier: Tier, name: string | null, email: string | null, usageId?: string): IssuedKey {
    const apiKey = generateApiKey(tier, randomInt);
    const id = randomUUID();
    const record: ApiKeyRecord = {
      id,
      usageId: usageId ?? id,
      hash: hashApiKey(apiKey),
      prefix: keyPrefix(apiKey),
      tier,
      name,
      email,
      active: true,
      createdAt: new Date(this.clock.now()).toISOString(),
      deactivatedAt: null,
    };
    return { apiKey, record };
  }

  async create(tier: Tier, name: string | null, email: string | null): Promise<IssuedKey> {
    const issued = this.draft(tier, name, email);
    await this.keys.create(issued.record);
    return issued;
  }

  /**
   * New key of the same tier, counting against the same quota and rate limits (a rotation is not
   * a way to reset them); the old one is inactive from now on. Null if it already was.
   */
  async rotate(presented: string, current: ApiKeyRecord): Promise<IssuedKey | null> {
    const issued = this.draft(current.tier, current.name, current.email, current.usageId);
    const ok = await this.keys.rotate(hashApiKey(presented), issued.record, issued.record.createdAt);
    return ok ? issued : null;
  }
}
