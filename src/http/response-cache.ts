import type { Clock } from "../domain/time/clock.js";

interface Entry {
  readonly body: Record<string, unknown>;
  readonly expiresAt: number;
}

/**
 * Shared response cache of computed bodies by route and query. `cache_ttl_seconds` reports the
 * seconds left on the entry (DECISIONS 2), so clients can align their polling with it.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  constructor(
    private readonly clock: Clock,
    private readonly maxEntries = 10_000,
  ) {}

  async getOrCompute(
    key: string,
    ttlSeconds: number,
    compute: () => Promise<Record<string, unknown>>,
  ): Promise<{ body: Record<string, unknown>; cached: boolean; ttlLeft: number }> {
    const now = this.clock.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) {
      return { body: hit.body, cached: true, ttlLeft: Math.max(1, Math.ceil((hit.expiresAt - now) / 1000)) };
    }
    const body = await compute();
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { body, expiresAt: now + ttlSeconds * 1000 });
    return { body, cached: false, ttlLeft: ttlSeconds };
  }

  invalidate(prefix: string): void {
    for (const k of this.entries.keys()) if (k.startsWith(prefix)) this.entries.delete(k);
  }
}
