/** One fixed counting window: at most `limit` hits in `bucket` until `expiresAt` (ms epoch). */
export interface CounterWindow {
  readonly bucket: string;
  readonly limit: number;
  readonly expiresAt: number;
}

export interface ConsumeResult {
  readonly allowed: boolean;
  /** Per window: the count after this hit when allowed, else the count as it stands. */
  readonly counts: readonly number[];
  /** Index of the first window that refused, or null. */
  readonly blockedIndex: number | null;
}

/**
 * Quotas and per-window limits. `consumeAll` counts a hit in every window only when all of them
 * have room, so a request refused by one limit is counted by none (DECISIONS 2), and never lets
 * two processes sharing the store exceed a limit.
 */
export interface CounterRepository {
  consumeAll(windows: readonly CounterWindow[], now: number): Promise<ConsumeResult>;
  peek(bucket: string, now: number): Promise<number>;
  /** Deletes windows that expired before `now`; returns how many. */
  sweepExpired(now: number): Promise<number>;
}
