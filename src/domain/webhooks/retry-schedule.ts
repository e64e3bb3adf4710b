import { RETRY_DELAYS_MS } from "./limits.js";
import { isGone, type DeliveryOutcome } from "./outcome.js";

/** The first attempt plus one per retry delay. */
export const MAX_ATTEMPTS = 1 + RETRY_DELAYS_MS.length;

/**
 * Delay before the next attempt once `attemptsMade` attempts have failed: 5 s after the 1st,
 * 25 s after the 2nd, 125 s after the 3rd; null once the retries are used up.
 */
export function retryDelayMs(attemptsMade: number): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) return null;
  return RETRY_DELAYS_MS[attemptsMade - 1] ?? null;
}

export type NextStep =
  | { readonly kind: "delivered" }
  | { readonly kind: "retry"; readonly dueAt: number }
  /** All attempts failed; the owner may be told, the event is not sent again. */
  | { readonly kind: "exhausted" }
  /** The receiver answered 410; no retry, the subscription is disabled. */
  | { readonly kind: "gone" };

/** What follows an attempt, given how many attempts (this one included) have been made. */
export function nextAttempt(attemptsMade: number, outcome: DeliveryOutcome, nowMs: number): NextStep {
  if (outcome.kind === "success") return { kind: "delivered" };
  if (isGone(outcome)) return { kind: "gone" };
  const delay = retryDelayMs(attemptsMade);
  return delay === null ? { kind: "exhausted" } : { kind: "retry", dueAt: nowMs + delay };
}
