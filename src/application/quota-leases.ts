import type { ConsumeResult, CounterRepository, CounterWindow } from "../store/ports/counters.js";
import type { Clock } from "../runtime/clocks/clock.js";
import {
  DEFAULT_LEASE_POLICY,
  grownBlock,
  leaseEnd,
  renewal,
  shrunkBlock,
  usedAsSeen,
  wantFor,
  type LeasePolicy,
} from "../domain/access/lease-arithmetic.js";

/** This process's block of one counting window. */
interface Lease {
  readonly window: CounterWindow;
  /** Calls leased from the store and not used yet. */
  held: number;
  /** The window's count after this process's last store operation on it (our own releases applied at once). */
  count: number;
  /** Calls the next reservation asks for (domain/access/lease-arithmetic.ts). */
  block: number;
  /** Reservations so far: the first asks for one call, so a key seen once holds nothing spare. */
  reservations: number;
  /** Calls used since the block was taken or renewed. */
  usedInLease: number;
  /** When the block's lifetime ends: unused calls go back then. */
  expiresAt: number;
  /** Requests of this process waiting for a call of this window. */
  waiting: number;
  /** The store operation in progress (one at a time per window); true when it found the window full. */
  op: Promise<boolean> | null;
}

export interface QuotaLeaseOptions {
  readonly policy?: LeasePolicy;
  /**
   * How long after a block's end the sweep waits before giving it back: a block still in use is
   * renewed by its next request in one store operation instead (give back now, take again a
   * moment later would be two), and two processes taking turns never write one window at once.
   */
  readonly graceMs?: number;
  /** How often expired blocks are looked for. */
  readonly sweepEveryMs?: number;
  /** A background give-back failed (the calls stay counted: the window errs towards fewer). */
  readonly onError?: (err: unknown) => void;
}

/**
 * Counts keyed requests against shared windows through per-process leases, so a store round
 * trip is paid per block of calls, not per request (issue 17 item 5). It answers like
 * `CounterRepository.consumeAll`: a request takes one call of every window or of none (it waits
 * until it holds a call of each, then takes them in one synchronous step), and `counts` are the
 * calls used as this process can tell (`usedAsSeen`). One instance per service, created by the
 * composition root; `close` gives every unused call back.
 */
export class QuotaLeases {
  private readonly leases = new Map<string, Lease>();
  private readonly policy: LeasePolicy;
  private readonly graceMs: number;
  private readonly sweepEveryMs: number;
  private readonly onError: (err: unknown) => void;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly counters: CounterRepository,
    private readonly clock: Clock,
    options: QuotaLeaseOptions = {},
  ) {
    this.policy = options.policy ?? DEFAULT_LEASE_POLICY;
    this.graceMs = options.graceMs ?? 250;
    this.sweepEveryMs = options.sweepEveryMs ?? 250;
    this.onError = options.onError ?? (() => undefined);
  }

  /** Starts the sweep that gives back blocks nobody renewed. */
  start(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => this.sweep(this.clock.now()), this.sweepEveryMs);
    this.timer.unref();
  }

  async consumeAll(windows: readonly CounterWindow[], now: number): Promise<ConsumeResult> {
    // After close nothing would give a new block back: count per request instead.
    if (this.closed) return this.counters.consumeAll(windows, now);
    const wanting = new Set<Lease>();
    try {
      for (;;) {
        // Looked up on every pass: the sweep may have dropped an idle lease while this request waited.
        const leases = windows.map((w) => this.leaseFor(w, now));
        const lacking = leases.map((l) => !(l.held >= 1 && l.expiresAt > now));
        if (!lacking.includes(true)) {
          for (const l of leases) {
            l.held -= 1;
            l.usedInLease += 1;
          }
          return { allowed: true, counts: leases.map((l) => usedAsSeen(l.count, l.held)), blockedIndex: null };
        }
        leases.forEach((l, i) => {
          if (lacking[i] && !wanting.has(l)) {
            wanting.add(l);
            l.waiting += 1;
          }
        });
        const full = await Promise.all(leases.map((l, i) => (lacking[i] ? this.refill(l, now) : false)));
        const blocked = full.indexOf(true);
        // Calls taken meanwhile for the other windows stay in their blocks: nothing was counted.
        if (blocked >= 0) return { allowed: false, counts: leases.map((l) => usedAsSeen(l.count, l.held)), blockedIndex: blocked };
      }
    } finally {
      for (const l of wanting) l.waiting -= 1;
    }
  }

  /** Gives back every block nobody renewed within the grace, and forgets windows that ended. */
  sweep(now: number): void {
    for (const [bucket, l] of this.leases) {
      if (l.op || l.waiting > 0) continue;
      if (l.window.expiresAt <= now || (l.held === 0 && l.expiresAt <= now)) {
        this.leases.delete(bucket);
      } else if (l.held > 0 && l.expiresAt + this.graceMs <= now) {
        this.giveBack(l, l.held, now).catch(this.onError);
      }
    }
  }

  /** Stops the sweep, lets store operations in progress finish and gives every unused call back. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.leases.values()].map((l) => l.op));
    const now = this.clock.now();
    const open = [...this.leases.values()].filter((l) => l.held > 0 && l.window.expiresAt > now);
    await Promise.all(open.map((l) => this.giveBack(l, l.held, now)));
    this.leases.clear();
  }

  /** The window's calls used as this process can tell (as `consumeAll` reports them), counting nothing. */
  async peek(bucket: string, now: number): Promise<number> {
    const l = this.leases.get(bucket);
    return l !== undefined && l.window.expiresAt > now ? usedAsSeen(l.count, l.held) : this.counters.peek(bucket, now);
  }

  /** Calls this process holds unused, per bucket (what `close` and the sweep give back). */
  held(): ReadonlyMap<string, number> {
    return new Map([...this.leases].map(([bucket, l]) => [bucket, l.held]));
  }

  private leaseFor(window: CounterWindow, now: number): Lease {
    let l = this.leases.get(window.bucket);
    if (!l) {
      l = { window, held: 0, count: 0, block: 1, reservations: 0, usedInLease: 0, expiresAt: leaseEnd(this.policy, now, window.expiresAt), waiting: 0, op: null };
      this.leases.set(window.bucket, l);
    }
    return l;
  }

  /**
   * Waits for the store operation in progress, or starts one: a new block when this one ran out
   * within its lifetime (twice the last, slow start), or a renewal when its lifetime is over (the
   * holding brought to what one lifetime used, in one operation). Resolves true when the window
   * had no call left for this process.
   */
  private async refill(l: Lease, now: number): Promise<boolean> {
    if (l.op) return (await l.op) && l.held < 1;
    const expired = l.expiresAt <= now;
    if (expired) l.block = shrunkBlock(this.policy, l.usedInLease);
    else if (l.reservations > 0) l.block = grownBlock(this.policy, l.block);
    const target = wantFor(this.policy, { limit: l.window.limit, count: l.count, block: l.block, demand: l.waiting });
    const { take, giveBack } = expired ? renewal(l.held, target) : { take: target, giveBack: 0 };
    const op = giveBack > 0 ? this.giveBack(l, giveBack, now).then(() => false) : this.take(l, take, now);
    return op;
  }

  private take(l: Lease, want: number, now: number): Promise<boolean> {
    const op = (async () => {
      // A renewal that keeps exactly what it holds still reads the window, so this process's
      // idea of the count (and X-RateLimit-Remaining) is never older than one lifetime.
      const grant = want > 0 ? await this.counters.reserve(l.window, want, now) : { granted: 0, count: await this.counters.peek(l.window.bucket, now) };
      l.held += grant.granted;
      l.count = grant.count;
      l.reservations += 1;
      this.renewed(l, now);
      return want > 0 && grant.granted === 0 && l.held < 1;
    })();
    return this.track(l, op);
  }

  /** Gives back `n` calls; they leave the holding (and the count as seen) before the store hears of it. */
  private giveBack(l: Lease, n: number, now: number): Promise<boolean> {
    l.held -= n;
    l.count -= n;
    const op = (async () => {
      l.count = await this.counters.release(l.window, n, now);
      this.renewed(l, now);
      return false;
    })();
    return this.track(l, op);
  }

  private renewed(l: Lease, now: number): void {
    l.usedInLease = 0;
    l.expiresAt = leaseEnd(this.policy, now, l.window.expiresAt);
  }

  private track(l: Lease, op: Promise<boolean>): Promise<boolean> {
    l.op = op;
    const clear = () => {
      if (l.op === op) l.op = null;
    };
    op.then(clear, clear);
    return op;
  }
}
