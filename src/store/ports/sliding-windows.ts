export interface SlidingHit {
  readonly allowed: boolean;
  readonly count: number;
  /** When the oldest counted hit leaves the window (ms epoch), for Retry-After. */
  readonly retryAt: number | null;
}

/** A sliding-window log: at most `limit` hits per `windowMs` ending now. */
export interface SlidingWindowRepository {
  hit(bucket: string, now: number, windowMs: number, limit: number): Promise<SlidingHit>;
  /**
   * Deletes every hit at or before `cutoff`, in every bucket; returns how many. `hit` prunes only
   * its own bucket, so without this each client address that ever called a sliding-limited route
   * would keep its rows for good.
   */
  sweepBefore(cutoff: number): Promise<number>;
}
