import type { Clock } from "../runtime/clocks/clock.js";
import type { SharedResponseCache } from "../store/ports/response-cache.js";

interface Entry {
  readonly body: Record<string, unknown>;
  readonly expiresAt: number;
}

export interface CacheAnswer {
  readonly body: Record<string, unknown>;
  readonly cached: boolean;
  /** Seconds left on the entry; the full TTL when freshly computed. */
  readonly ttlLeft: number;
}

/**
 * Response cache of computed bodies by route and query. `cache_ttl_seconds` reports the seconds
 * left on the entry (DECISIONS 2), so clients can align their polling with it.
 *
 * With a shared store (the service's), an entry is computed once for the whole cluster: a replica
 * that misses locally reads the stored entry and serves it until it expires, and a body it
 * computes is stored only if no live one was stored meanwhile, else the stored one is served.
 * Every replica therefore answers a request with the same body until that entry expires (issue
 * 17). Local copies keep the stored expiry, so they never outlive the shared entry; a store round
 * trip is paid per entry and replica, not per request.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  // Concurrent misses on one key share one computation instead of stampeding the store.
  private readonly inflight = new Map<string, Promise<{ entry: Entry; fresh: boolean }>>();
  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 10_000,
    private readonly shared: SharedResponseCache | null = null,
  ) {}

  async getOrCompute(key: string, ttlSeconds: number, compute: () => Promise<Record<string, unknown>>): Promise<CacheAnswer> {
    const now = this.clock.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return { body: hit.body, cached: true, ttlLeft: secondsLeft(hit, now) };
    const pending = this.inflight.get(key);
    if (pending) {
      const { entry } = await pending;
      return { body: entry.body, cached: true, ttlLeft: secondsLeft(entry, this.clock.now()) };
    }
    const loading = this.load(key, ttlSeconds, compute).then((r) => {
      this.store(key, r.entry);
      return r;
    });
    this.inflight.set(key, loading);
    try {
      const { entry, fresh } = await loading;
      return fresh ? { body: entry.body, cached: false, ttlLeft: ttlSeconds } : { body: entry.body, cached: true, ttlLeft: secondsLeft(entry, this.clock.now()) };
    } finally {
      this.inflight.delete(key);
    }
  }

  /** The live shared entry, or a freshly computed body (stored unless another replica's won). */
  private async load(key: string, ttlSeconds: number, compute: () => Promise<Record<string, unknown>>): Promise<{ entry: Entry; fresh: boolean }> {
    const shared = this.shared;
    if (shared !== null) {
      const stored = await shared.get(key);
      if (stored !== null && stored.expiresAt > this.clock.now()) return { entry: parsed(stored), fresh: false };
    }
    const body = await compute();
    const entry = { body, expiresAt: this.clock.now() + ttlSeconds * 1000 };
    if (shared === null) return { entry, fresh: true };
    const put = await shared.putIfVacant(key, { body: JSON.stringify(body), expiresAt: entry.expiresAt }, this.clock.now());
    return put.stored ? { entry, fresh: true } : { entry: parsed(put.entry), fresh: false };
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, entry: Entry): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const now = this.clock.now();
      for (const [k, e] of this.entries) if (e.expiresAt <= now) this.entries.delete(k);
    }
    // Still full of live entries: drop the oldest (Map keeps insertion order).
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    this.entries.set(key, entry);
  }
}

function parsed(stored: { readonly body: string; readonly expiresAt: number }): Entry {
  return { body: JSON.parse(stored.body) as Record<string, unknown>, expiresAt: stored.expiresAt };
}

function secondsLeft(entry: Entry, now: number): number {
  return Math.max(1, Math.ceil((entry.expiresAt - now) / 1000));
}
