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

/** A block of calls leased from a window (domain/access/lease-arithmetic.ts). */
export interface LeaseGrant {
  /** Calls granted: at most what was asked for, never more than the window had left. */
  readonly granted: number;
  /** The window's count after the reservation: calls used plus calls leased by every process. */
  readonly count: number;
}

/**
 * Quotas and per-window limits. `consumeAll` counts a hit in every window only when all of them
 * have room, so a request refused by one limit is counted by none (DECISIONS 2), and never lets
 * two processes sharing the store exceed a limit.
 */
export interface CounterRepository {
  consumeAll(windows: readonly CounterWindow[], now: number): Promise<ConsumeResult>;
  /**
   * Leases up to `want` calls of the window in one atomic conditional update, never more than
   * it has left, so the calls used plus all outstanding leases never exceed the limit. The
   * window's count includes the granted calls at once; unused ones come back through `release`.
   */
  reserve(window: CounterWindow, want: number, now: number): Promise<LeaseGrant>;
  /**
   * Gives back `unused` leased calls of `window`. A window that has ended or was restarted
   * since the lease was taken is left alone. Resolves with the window's count afterwards
   * (0 when the window no longer exists).
   */
  release(window: CounterWindow, unused: number, now: number): Promise<number>;
  peek(bucket: string, now: number): Promise<number>;
  /** Deletes windows that expired before `now`; returns how many. */
  sweepExpired(now: number): Promise<number>;
}
