import type { IpLimit } from "../application/ip-limiter.js";
import type { UsageRefusal } from "../application/usage-limiter.js";
import { ApiError, accessError, rateLimited } from "./errors.js";

/** A public route's per-IP limit, with how the HTTP layer applies and words it. */
export interface RouteIpLimit extends IpLimit {
  /** Body style of the 429: SPEC.md gives the newsletter `{detail: string}`. */
  readonly style: "detail" | "access";
  /**
   * "every-request": SPEC.md's newsletter limit counts requests, invalid ones included.
   * "valid-requests": key generation limits generations, so a typo does not cost an attempt.
   */
  readonly counts: "every-request" | "valid-requests";
}

/** The 429 of a refused per-IP hit. */
export function ipLimitError(limit: RouteIpLimit, retryAfterSeconds: number): ApiError {
  if (limit.style === "detail") {
    return new ApiError(
      429,
      { detail: `Too many requests: at most ${limit.limit} per ${limit.windowSeconds / 60} minutes from one address. Try again in ${retryAfterSeconds} s.` },
      { "Retry-After": String(retryAfterSeconds) },
    );
  }
  return rateLimited(limit.limit, limit.windowSeconds, retryAfterSeconds, `At most ${limit.limit} requests per ${limit.windowSeconds} s from one address.`);
}

/** The 429 of a keyed request over its daily quota or a per-window limit (DECISIONS 2). */
export function usageRefusalError(refusal: UsageRefusal, upgradeUrl: string): ApiError {
  if (refusal.kind === "daily_quota") {
    return accessError(
      "daily_limit_exceeded",
      `Daily limit of ${refusal.limit} calls reached; it resets at 00:00 UTC.`,
      { calls_today: refusal.callsToday, limit: refusal.limit, reset_at: new Date(refusal.resetsAt).toISOString(), upgrade_url: upgradeUrl },
      { "Retry-After": String(refusal.retryAfterSeconds) },
    );
  }
  return rateLimited(refusal.limit, refusal.windowSeconds, refusal.retryAfterSeconds, `Rate limit of ${refusal.limit} requests per ${refusal.windowSeconds} s exceeded.`);
}
