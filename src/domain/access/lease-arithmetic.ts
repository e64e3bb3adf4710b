/**
 * Quota leases: a process takes a block of calls from a shared counting window, serves requests
 * from it in memory and gives back what it did not use. The store's count of a window is then
 * "calls used + calls leased and not yet used"; it never exceeds the limit, so neither do the
 * calls used, however many processes lease at once. Pure arithmetic; times are arguments.
 */
export interface LeasePolicy {
  /** Wall-clock lifetime of a block: what is unused by then goes back to the window. */
  readonly lifetimeMs: number;
  /** The most calls one block may hold, however far the window is from its limit. */
  readonly maxBlock: number;
  /**
   * A block takes at most 1/share of what the window has left (as last seen), so N processes
   * leave (1 - 1/share)^N of it to the others, and the last `share` calls go one at a time.
   */
  readonly share: number;
}

/** 1 s blocks, at most 1,000 calls, at most an eighth of what is left (docs/decisions.md). */
export const DEFAULT_LEASE_POLICY: LeasePolicy = { lifetimeMs: 1_000, maxBlock: 1_000, share: 8 };

/** What a window still has to give: the limit minus calls used and leased. */
export function leftIn(limit: number, count: number): number {
  return Math.max(0, limit - count);
}

/**
 * The store's rule for one reservation: at most `want`, never more than what is left. One
 * atomic conditional update applies it, so concurrent reservations cannot overdraw the window.
 */
export function grantFor(limit: number, count: number, want: number): number {
  return Math.max(0, Math.min(Math.floor(want), leftIn(limit, count)));
}

/** The largest block worth taking at `count`: 1 near the limit, so the last calls are exact. */
export function blockCap(policy: LeasePolicy, limit: number, count: number): number {
  return Math.max(1, Math.min(policy.maxBlock, Math.floor(leftIn(limit, count) / policy.share)));
}

export interface WantInputs {
  readonly limit: number;
  /** The window's count as this process last saw it. */
  readonly count: number;
  /** The block size this lease has grown or shrunk to. */
  readonly block: number;
  /** Requests of this process waiting for a call of this window right now. */
  readonly demand: number;
}

/**
 * How many calls to ask for: the block (capped by what is left), or more when more requests are
 * already waiting, since those use their calls at once and leave nothing unused behind.
 */
export function wantFor(policy: LeasePolicy, x: WantInputs): number {
  return Math.max(1, x.demand, Math.min(x.block, blockCap(policy, x.limit, x.count)));
}

/** The previous block ran out within its lifetime: twice as many next time (slow start). */
export function grownBlock(policy: LeasePolicy, block: number): number {
  return Math.min(policy.maxBlock, Math.max(1, block * 2));
}

/**
 * A block outlived its lifetime with calls to spare: next time ask for what one lifetime used.
 * A key that sends one request now and then thus holds no spare calls at all.
 */
export function shrunkBlock(policy: LeasePolicy, usedInLifetime: number): number {
  return Math.min(policy.maxBlock, Math.max(1, usedInLifetime));
}

/** A block ends at its lifetime or at its window's end, whichever comes first. */
export function leaseEnd(policy: LeasePolicy, takenAt: number, windowEnd: number): number {
  return Math.min(windowEnd, takenAt + policy.lifetimeMs);
}

/**
 * Calls used in a window as this process can tell: the store's count minus the calls it holds
 * unused itself. Other processes' unused calls count as used until they are given back, so this
 * errs towards "fewer left", and is exact when one process serves the key.
 */
export function usedAsSeen(count: number, held: number): number {
  return Math.max(0, count - held);
}

/**
 * Renewing a lease at the end of its lifetime brings its holding to `target` in one store
 * operation: take the difference when it holds less, give back the excess when it holds more.
 */
export function renewal(held: number, target: number): { readonly take: number; readonly giveBack: number } {
  return target >= held ? { take: target - held, giveBack: 0 } : { take: 0, giveBack: held - target };
}
