/**
 * Computed response bodies shared by every replica (issue 17: no process-local truth): the
 * first replica to compute a route's body stores it with its expiry, and every replica serves
 * that very entry until it expires, so two replicas never answer one request with bodies
 * computed at different moments. Replicas keep local copies of entries, expiry included.
 */
export interface SharedCacheEntry {
  /** The body as JSON text. */
  readonly body: string;
  /** Wall time (ms) the entry expires at (DECISIONS 2 TTLs are wall seconds). */
  readonly expiresAt: number;
}

export interface SharedResponseCache {
  /** The entry stored for `key`, expired or not; null when none. */
  get(key: string): Promise<SharedCacheEntry | null>;
  /**
   * Stores `entry` unless a live entry (expiring after `now`) is stored already, atomically;
   * returns the entry in force and whether it is the one given.
   */
  putIfVacant(key: string, entry: SharedCacheEntry, now: number): Promise<{ readonly entry: SharedCacheEntry; readonly stored: boolean }>;
  /** Drops entries expired by `now`; returns how many. */
  sweepExpired(now: number): Promise<number>;
}
