import type { CounterRepository } from "../store/ports/counters.js";
import type { SlidingWindowRepository } from "../store/ports/sliding-windows.js";
import type { Clock } from "../runtime/clocks/clock.js";
import { ApiError, rateLimited } from "../http/errors.js";

/** A per-client-IP limit of a public route. */
export interface IpLimit {
  readonly name: string;
  readonly limit: number;
  readonly windowSeconds: number;
  /** Sliding log (newsletter: "sliding hour") or fixed window. */
  readonly sliding: boolean;
  /** Body style of the 429: SPEC.md gives the newsletter `{detail: string}`. */
  readonly style: "detail" | "access";
  /**
   * "every-request": SPEC.md's newsletter limit counts requests, invalid ones included.
   * "valid-requests": key generation limits generations, so a typo does not cost an attempt.
   */
  readonly counts: "every-request" | "valid-requests";
}

export class IpLimiter {
  constructor(
    private readonly counters: CounterRepository,
    private readonly sliding: SlidingWindowRepository,
    private readonly clock: Clock,
  ) {}

  /** Counts the hit; throws the 429 when the IP is over its limit. */
  async hit(limit: IpLimit, ip: string): Promise<void> {
    const now = this.clock.now();
    const windowMs = limit.windowSeconds * 1000;
    let retryAt: number | null = null;
    if (limit.sliding) {
      const r = await this.sliding.hit(`${limit.name}:${ip}`, now, windowMs, limit.limit);
      if (r.allowed) return;
      retryAt = r.retryAt ?? now + windowMs;
    } else {
      const end = (Math.floor(now / windowMs) + 1) * windowMs;
      const r = await this.counters.consumeAll([{ bucket: `${limit.name}:${ip}:${end}`, limit: limit.limit, expiresAt: end }], now);
      if (r.allowed) return;
      retryAt = end;
    }
    const retryAfter = Math.max(1, Math.ceil((retryAt - now) / 1000));
    if (limit.style === "detail") {
      throw new ApiError(
        429,
        { detail: `Too many requests: at most ${limit.limit} per ${limit.windowSeconds / 60} minutes from one address. Try again in ${retryAfter} s.` },
        { "Retry-After": String(retryAfter) },
      );
    }
    throw rateLimited(limit.limit, limit.windowSeconds, retryAfter, `At most ${limit.limit} requests per ${limit.windowSeconds} s from one address.`);
  }
}
