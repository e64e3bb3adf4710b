import type { Clock } from "../runtime/clocks/clock.js";

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
 * Shared response cache of computed bodies by route and query. `cache_ttl_seconds` reports the
 * seconds left on the entry (DECISIONS 2), so clients can align their polling with it.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  // Concurrent misses on one key share one computation instead of stampeding the store.
  private readonly inflight = new Map<string, Promise<Entry>>();
  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 10_000,
  ) {}

  async getOrCompute(key: string, ttlSeconds: number, compute: () => Promise<Record<string, unknown>>): Promise<CacheAnswer> {
    const now = this.clock.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return { body: hit.body, cached: true, ttlLeft: secondsLeft(hit, now) };
    const pending = this.inflight.get(key);
    if (pending) {
      const entry = await pending;
      return { body: entry.body, cached: true, ttlLeft: secondsLeft(entry, this.clock.now()) };
    }
    const computing = compute().then((body) => {
      const entry = { body, expiresAt: this.clock.now() + ttlSeconds * 1000 };
      this.store(key, entry);
      return entry;
    });
    this.inflight.set(key, computing);
    try {
      const entry = await computing;
      return { body: entry.body, cached: false, ttlLeft: ttlSeconds };
    } finally {
      this.inflight.delete(key);
    }
  }

  invalidate(prefix: string): void {
    for (const k of this.entries.keys()) if (k.startsWith(prefix)) this.entries.delete(k);
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

function secondsLeft(entry: Entry, now: number): number {
  return Math.max(1, Math.ceil((entry.expiresAt - now) / 1000));
}
