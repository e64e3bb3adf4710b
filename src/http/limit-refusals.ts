import type { IpLimit } from "../application/ip-limiter.js";
import type { UsageRefusal } from "../application/usage-limiter.js";
import { ApiError } from "./error-codes.js";

/** A public route's per-IP limit, with how the HTTP layer applies and words it. */
export interface RouteIpLimit extends IpLimit {
  /** The 429 it answers: SPEC.md gives the newsletter a plain `{detail: string}`. */
  readonly refusal: "rate_limit_exceeded" | "newsletter_rate_limited";
  /**
   * "every-request": SPEC.md's newsletter limit counts requests, invalid ones included.
   * "valid-requests": key generation limits generations, so a typo does not cost an attempt.
   */
  readonly counts: "every-request" | "valid-requests";
}

/** The 429 of a refused per-IP hit. */
export function ipLimitError(limit: RouteIpLimit, retryAfterSeconds: number): ApiError {
  const facts = { limit: limit.limit, windowSeconds: limit.windowSeconds, retryAfterSeconds };
  if (limit.refusal === "newsletter_rate_limited") return new ApiError("newsletter_rate_limited", facts);
  return new ApiError("rate_limit_exceeded", { per: "address", ...facts });
}

/** The 429 of a keyed request over its daily quota or a per-window limit (DECISIONS 2). */
export function usageRefusalError(refusal: UsageRefusal, upgradeUrl: string): ApiError {
  if (refusal.kind === "daily_quota") {
    const { limit, callsToday, resetsAt, retryAfterSeconds } = refusal;
    return new ApiError("daily_limit_exceeded", { limit, callsToday, resetAt: new Date(resetsAt).toISOString(), upgradeUrl, retryAfterSeconds });
  }
  return new ApiError("rate_limit_exceeded", { per: "key", limit: refusal.limit, windowSeconds: refusal.windowSeconds, retryAfterSeconds: refusal.retryAfterSeconds });
}
