import type { CounterRepository, CounterWindow } from "../store/ports/counters.js";
import type { Clock } from "../runtime/clocks/clock.js";
import { nextUtcMidnight, utcDay } from "../domain/access/utc-day.js";

/**
 * What counts a request in its windows, all or nothing: the store itself (a round trip per
 * request) or `QuotaLeases` (a round trip per block); the composition root picks.
 */
export type WindowCounter = Pick<CounterRepository, "consumeAll" | "peek">;

export interface ExtraLimit {
  /** Distinguishes the limit's bucket, e.g. "tao-council-run". */
  readonly name: string;
  readonly limit: number;
  readonly windowSeconds: number;
}

export interface QuotaState {
  readonly limit: number;
  readonly remaining: number;
  /** Unix epoch seconds of the next 00:00 UTC. */
  readonly resetEpochSeconds: number;
}

/** Why a keyed request was refused; the HTTP layer words it (daily_limit_exceeded, rate_limit_exceeded). */
export type UsageRefusal =
  | {
      readonly kind: "daily_quota";
      readonly limit: number;
      readonly callsToday: number;
      /** Wall-clock milliseconds of the next 00:00 UTC, when the quota resets. */
      readonly resetsAt: number;
      readonly retryAfterSeconds: number;
    }
  | {
      readonly kind: "rate_limit";
      readonly limit: number;
      readonly windowSeconds: number;
      /** Seconds until the window ends, unrounded. */
      readonly retryAfterSeconds: number;
    };

export type UsageOutcome = { readonly ok: true; readonly quota: QuotaState } | { readonly ok: false; readonly refusal: UsageRefusal; readonly quota: QuotaState };

/**
 * Counts one keyed request against the daily quota, the tier's per-minute limit and any
 * route-specific limit, all or nothing (wall clock: callers live in UTC, not market time).
 */
export class UsageLimiter {
  constructor(
    private readonly counters: WindowCounter,
    private readonly clock: Clock,
  ) {}

  async consume(keyId: string, dailyQuota: number, perMinute: number, extra: readonly ExtraLimit[] = []): Promise<UsageOutcome> {
    const now = this.clock.now();
    const { windows, midnight } = this.windows(keyId, now, dailyQuota, perMinute, extra);
    const r = await this.counters.consumeAll(windows, now);
    const quota = quotaState(dailyQuota, r.counts[0] ?? 0, midnight);
    if (r.allowed) return { ok: true, quota };
    if (r.blockedIndex === 0) {
      const retryAfterSeconds = Math.max(1, Math.ceil((midnight - now) / 1000));
      return { ok: false, refusal: { kind: "daily_quota", limit: dailyQuota, callsToday: r.counts[0] ?? 0, resetsAt: midnight, retryAfterSeconds }, quota };
    }
    const w = windows[r.blockedIndex ?? 1] as CounterWindow;
    const windowSeconds = r.blockedIndex === 1 ? 60 : (extra[(r.blockedIndex ?? 2) - 2]?.windowSeconds ?? 60);
    return { ok: false, refusal: { kind: "rate_limit", limit: w.limit, windowSeconds, retryAfterSeconds: (w.expiresAt - now) / 1000 }, quota };
  }

  /**
   * Counts a request that the daily quota and the per-minute limit must not refuse (revoking or
   * rotating a key whose quota someone else spent). Each of the two counts the request where it
   * has room, so a spent quota stays at its limit; only `extra` (the route's own limits) refuse,
   * and a request they refuse is counted nowhere (DECISIONS 2: a 429 does not count).
   */
  async countWithoutRefusing(keyId: string, dailyQuota: number, perMinute: number, extra: readonly ExtraLimit[] = []): Promise<UsageOutcome> {
    const now = this.clock.now();
    const { windows, midnight } = this.windows(keyId, now, dailyQuota, perMinute, extra);
    const [daily, minute, ...own] = windows as [CounterWindow, CounterWindow, ...CounterWindow[]];
    // The quota and the route's limits together first, so that a refusal by the latter leaves
    // the quota uncounted; a spent quota then lets the route's limits decide alone.
    const first = await this.counters.consumeAll([daily, ...own], now);
    const used = first.counts[0] ?? 0;
    const quota = quotaState(dailyQuota, used, midnight);
    let refusedAt = first.allowed ? null : first.blockedIndex;
    if (refusedAt === 0) {
      const second = own.length > 0 ? await this.counters.consumeAll(own, now) : null;
      refusedAt = second === null || second.allowed ? null : (second.blockedIndex ?? 0) + 1;
    }
    if (refusedAt !== null) {
      const w = windows[refusedAt + 1] as CounterWindow;
      const windowSeconds = extra[refusedAt - 1]?.windowSeconds ?? 60;
      return { ok: false, refusal: { kind: "rate_limit", limit: w.limit, windowSeconds, retryAfterSeconds: (w.expiresAt - now) / 1000 }, quota };
    }
    await this.counters.consumeAll([minute], now);
    return { ok: true, quota };
  }

  /**
   * The daily quota as it stands, counting nothing: for a keyed answer that never reaches the
   * limiter (403 tier_required), which still carries the X-RateLimit headers (DECISIONS 2).
   */
  async quotaNow(keyId: string, dailyQuota: number): Promise<QuotaState> {
    const now = this.clock.now();
    const { windows, midnight } = this.windows(keyId, now, dailyQuota, 1, []);
    return quotaState(dailyQuota, await this.counters.peek((windows[0] as CounterWindow).bucket, now), midnight);
  }

  /** The daily, per-minute and route windows of a request at `now`, in that order. */
  private windows(keyId: string, now: number, dailyQuota: number, perMinute: number, extra: readonly ExtraLimit[]): { windows: CounterWindow[]; midnight: number } {
    const midnight = nextUtcMidnight(now);
    const minuteEnd = (Math.floor(now / 60_000) + 1) * 60_000;
    const windows: CounterWindow[] = [
      { bucket: `quota:${keyId}:${utcDay(now)}`, limit: dailyQuota, expiresAt: midnight },
      { bucket: `minute:${keyId}:${minuteEnd}`, limit: perMinute, expiresAt: minuteEnd },
      ...extra.map((x) => {
        const end = (Math.floor(now / (x.windowSeconds * 1000)) + 1) * x.windowSeconds * 1000;
        return { bucket: `${x.name}:${keyId}:${end}`, limit: x.limit, expiresAt: end };
      }),
    ];
    return { windows, midnight };
  }
}

function quotaState(dailyQuota: number, used: number, midnight: number): QuotaState {
  return { limit: dailyQuota, remaining: Math.max(0, dailyQuota - used), resetEpochSeconds: Math.floor(midnight / 1000) };
}
