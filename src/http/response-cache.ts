import { LRUCache } from "lru-cache";
import type { Clock } from "../runtime/clocks/clock.js";
import type { SharedResponseCache } from "../store/ports/response-cache.js";

interface Entry {
  /**
   * The body as JSON text, serialised once when computed (or as the shared store holds it): a hit
   * writes it out as it is instead of serialising the body again (12-32 µs for a 4-12 KB body,
   * bench/README.md), and text takes about half the heap of the parsed object.
   */
  readonly json: string;
  readonly expiresAt: number;
  /** Length of the JSON text: what the local copies are bounded by. */
  readonly bytes: number;
}

/**
 * JSON text the local copies may hold together. Counting entries let one caller fill a replica's
 * heap: 12,000 distinct candle queries exist, and 3,000 of them held 240 MB. The copies are kept
 * as text, one or two bytes a character, so this is 32-64 MB.
 */
export const DEFAULT_LOCAL_CACHE_BYTES = 32 * 1024 * 1024;

export interface ResponseCacheOptions {
  /** The store's shared entries (the service's); without it, entries are this process's alone. */
  readonly shared?: SharedResponseCache | null;
  /** Bound on the local copies' JSON text (default DEFAULT_LOCAL_CACHE_BYTES). */
  readonly maxBytes?: number;
  /**
   * Prefixes every key, so processes that would compute another body for the same request (a
   * build whose response schemas differ, another market feed on the same store) never serve each
   * other's stored entries.
   */
  readonly namespace?: string;
}

export interface CacheAnswer {
  /** The body's JSON text (an object), as computed or as the shared store holds it. */
  readonly json: string;
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
  // Least recently used first out, by size; an entry over an eighth of the bound is not kept
  // locally (it is still shared through the store), so one huge body cannot flush the rest.
  private readonly entries: LRUCache<string, Entry>;
  // Concurrent misses on one key share one computation instead of stampeding the store.
  private readonly inflight = new Map<string, Promise<{ entry: Entry; fresh: boolean }>>();
  private readonly shared: SharedResponseCache | null;
  private readonly namespace: string;
  constructor(
    private readonly clock: Clock,
    options: ResponseCacheOptions = {},
  ) {
    const maxBytes = options.maxBytes ?? DEFAULT_LOCAL_CACHE_BYTES;
    this.entries = new LRUCache<string, Entry>({ maxSize: maxBytes, maxEntrySize: Math.max(1, Math.floor(maxBytes / 8)), sizeCalculation: (e) => Math.max(1, e.bytes) });
    this.shared = options.shared ?? null;
    this.namespace = options.namespace ?? "";
  }

  async getOrCompute(route: string, ttlSeconds: number, compute: () => Promise<Record<string, unknown>>): Promise<CacheAnswer> {
    const key = this.namespace === "" ? route : `${this.namespace} ${route}`;
    const now = this.clock.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return { json: hit.json, cached: true, ttlLeft: secondsLeft(hit, now) };
    const pending = this.inflight.get(key);
    if (pending) {
      const { entry } = await pending;
      return { json: entry.json, cached: true, ttlLeft: secondsLeft(entry, this.clock.now()) };
    }
    const loading = this.load(key, ttlSeconds, compute).then((r) => {
      this.store(key, r.entry);
      return r;
    });
    this.inflight.set(key, loading);
    try {
      const { entry, fresh } = await loading;
      return fresh ? { json: entry.json, cached: false, ttlLeft: ttlSeconds } : { json: entry.json, cached: true, ttlLeft: secondsLeft(entry, this.clock.now()) };
    } finally {
      this.inflight.delete(key);
    }
  }

  /** The live shared entry, or a freshly computed body (stored unless another replica's won). */
  private async load(key: string, ttlSeconds: number, compute: () => Promise<Record<string, unknown>>): Promise<{ entry: Entry; fresh: boolean }> {
    const shared = this.shared;
    if (shared !== null) {
      const stored = await shared.get(key);
      const live = stored === null || stored.expiresAt <= this.clock.now() ? null : asEntry(stored);
      if (live !== null) return { entry: live, fresh: false };
    }
    const json = JSON.stringify(await compute());
    const entry = { json, expiresAt: this.clock.now() + ttlSeconds * 1000, bytes: json.length };
    if (shared === null) return { entry, fresh: true };
    const put = await shared.putIfVacant(key, { body: json, expiresAt: entry.expiresAt }, this.clock.now());
    const theirs = put.stored ? null : asEntry(put.entry);
    return theirs === null ? { entry, fresh: true } : { entry: theirs, fresh: false };
  }

  /** Local copies held (expired ones included until they are evicted or replaced). */
  get size(): number {
    return this.entries.size;
  }

  /** JSON text the local copies hold together. */
  get bytes(): number {
    return this.entries.calculatedSize;
  }

  private store(key: string, entry: Entry): void {
    // An expired copy is dead weight: drop them before the bound evicts a live one.
    if (this.entries.calculatedSize + entry.bytes > this.entries.maxSize) {
      const now = this.clock.now();
      const expired = [...this.entries.entries()].filter(([, e]) => e.expiresAt <= now).map(([k]) => k);
      for (const k of expired) this.entries.delete(k);
    }
    this.entries.set(key, entry);
  }
}

/**
 * The shared store's entry as it is, written by `JSON.stringify` of a body here or on another
 * replica; served without parsing, so text that is not an object's (a row damaged outside the
 * service) is taken for no entry rather than written out as a body.
 */
function asEntry(stored: { readonly body: string; readonly expiresAt: number }): Entry | null {
  if (!stored.body.startsWith("{") || !stored.body.endsWith("}")) return null;
  return { json: stored.body, expiresAt: stored.expiresAt, bytes: stored.body.length };
}

function secondsLeft(entry: Entry, now: number): number {
  return Math.max(1, Math.ceil((entry.expiresAt - now) / 1000));
}
