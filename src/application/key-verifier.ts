import { LRUCache } from "lru-cache";
import { hashApiKey, parseApiKey } from "../domain/access/api-key.js";
import type { ApiKeyRecord, ApiKeyRepository } from "../store/ports/api-keys.js";
import type { Clock } from "../runtime/clocks/clock.js";

export type KeyVerdict =
  | { readonly status: "valid"; readonly key: ApiKeyRecord }
  | { readonly status: "not_found" }
  | { readonly status: "disabled"; readonly key: ApiKeyRecord };

interface Entry {
  readonly record: ApiKeyRecord | null;
  readonly until: number;
}

/**
 * Hash → short-lived cache → store (Unkey's order). The cache TTL bounds how long a key
 * deactivated elsewhere (CLI, another process) keeps working: 2 s, inside the 5 s promise.
 *
 * Keys the store knows and keys it does not are cached apart, each evicting its least recently
 * used: anyone can present well-formed random keys, and with one cache (cleared when full) such
 * a flood cost every real key its cache hit, so each real request went to the store.
 */
/** How long a verified key's record is reused before the store is asked again. */
export const KEY_CACHE_TTL_MS = 2000;

export class KeyVerifier {
  private readonly known: LRUCache<string, Entry>;
  private readonly unknown: LRUCache<string, Entry>;
  /** Look-ups in progress: the requests of one key arriving together share one store round trip. */
  private readonly loading = new Map<string, Promise<Entry>>();
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
    private readonly ttlMs = KEY_CACHE_TTL_MS,
    maxKnown = 50_000,
    maxUnknown = 10_000,
  ) {
    this.known = new LRUCache({ max: maxKnown });
    this.unknown = new LRUCache({ max: maxUnknown });
  }

  async verify(presented: string): Promise<KeyVerdict> {
    if (!parseApiKey(presented)) return { status: "not_found" };
    const hash = hashApiKey(presented);
    const now = this.clock.now();
    let entry = this.known.get(hash) ?? this.unknown.get(hash);
    if (!entry || entry.until <= now) entry = await this.load(hash, now);
    // The store matched on the hash (an indexed equality lookup); a timing side channel on the
    // hash of a random key reveals nothing about other keys.
    if (!entry.record) return { status: "not_found" };
    return entry.record.active ? { status: "valid", key: entry.record } : { status: "disabled", key: entry.record };
  }

  /** Forget a key at once in this process (after rotate/deactivate through the API). */
  forget(presented: string): void {
    const hash = hashApiKey(presented);
    this.known.delete(hash);
    this.unknown.delete(hash);
    // A look-up still in flight read the key before it changed: it must not fill the cache.
    this.loading.delete(hash);
  }

  /**
   * One store read per key at a time. On MongoDB a key's cache entry expiring under load
   * otherwise sent every request in flight to the store at once. A joined read is at most one
   * round trip old, so "deactivated → refused within 2 s" holds as before.
   */
  private load(hash: string, now: number): Promise<Entry> {
    const inFlight = this.loading.get(hash);
    if (inFlight) return inFlight;
    const loaded: Promise<Entry> = this.keys.findByHash(hash).then(
      (record) => {
        const entry = { record, until: now + this.ttlMs };
        if (this.loading.get(hash) === loaded) {
          this.loading.delete(hash);
          if (record === null) {
            this.unknown.set(hash, entry);
          } else {
            this.known.set(hash, entry);
            this.unknown.delete(hash);
          }
        }
        return entry;
      },
      (err: unknown) => {
        if (this.loading.get(hash) === loaded) this.loading.delete(hash);
        throw err;
      },
    );
    this.loading.set(hash, loaded);
    return loaded;
  }
}
