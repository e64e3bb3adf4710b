import type { CounterRepository } from "../store/ports/counters.js";
import type { SlidingWindowRepository } from "../store/ports/sliding-windows.js";
import type { Clock } from "../runtime/clocks/clock.js";
import { clientBucket } from "./client-address.js";

/**
 * The longest sliding window a limit may use: the store's sweep deletes every hit older than this
 * (SlidingWindowRepository.sweepBefore), so a longer window would forget hits it still counts.
 */
export const MAX_SLIDING_WINDOW_MS = 24 * 3_600_000;

/** A per-client-IP limit of a public route. */
export interface IpLimit {
  readonly name: string;
  readonly limit: number;
  readonly windowSeconds: number;
  /** Sliding log (newsletter: "sliding hour") or fixed window. */
  readonly sliding: boolean;
}

/** Whether a hit was counted, or refused with the seconds until the IP may try again. */
export type IpLimitOutcome = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

export class IpLimiter {
  constructor(
    private readonly counters: CounterRepository,
    private readonly sliding: SlidingWindowRepository,
    private readonly clock: Clock,
    /** What a client is counted under (AppDeps.clientTag): the address itself unless told otherwise. */
    private readonly clientTag: (client: string) => string = (client) => client,
  ) {}

  /** Counts the hit unless the IP is over its limit; the caller words the refusal. */
  async hit(limit: IpLimit, ip: string): Promise<IpLimitOutcome> {
    const now = this.clock.now();
    const windowMs = limit.windowSeconds * 1000;
    // An IPv6 client by its /64, an IPv4-mapped one by its IPv4 address (client-address.ts).
    const client = this.clientTag(clientBucket(ip));
    let retryAt: number;
    if (limit.sliding) {
      if (windowMs > MAX_SLIDING_WINDOW_MS) throw new Error(`sliding limit ${limit.name}: window over ${MAX_SLIDING_WINDOW_MS} ms`);
      const r = await this.sliding.hit(`${limit.name}:${client}`, now, windowMs, limit.limit);
      if (r.allowed) return { allowed: true };
      retryAt = r.retryAt ?? now + windowMs;
    } else {
      const end = (Math.floor(now / windowMs) + 1) * windowMs;
      const r = await this.counters.consumeAll([{ bucket: `${limit.name}:${client}:${end}`, limit: limit.limit, expiresAt: end }], now);
      if (r.allowed) return { allowed: true };
      retryAt = end;
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((retryAt - now) / 1000)) };
  }
}
