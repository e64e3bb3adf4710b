import type { Clock } from "../../runtime/clocks/clock.js";

export type CircuitState = "CLOSED" | "OPEN" | "HALF_OPEN";

/**
 * The longest a provider's ask is honoured: three days, Binance's longest documented IP ban (418s
 * escalate from 2 minutes to 3 days). A Retry-After beyond it is a fault (a proxy's, a misread
 * date), not a limit; honoured as given it would silence a signal for as long, and since the hold
 * is kept in the poller actor's state, a restart would not end it.
 */
export const MAX_PROVIDER_HOLD_MS = 3 * 86_400_000;

export interface CircuitBreakerOptions {
  /** Consecutive failed calls that open the circuit. */
  readonly failureThreshold: number;
  /** How long an open circuit refuses calls before one trial call is let through. */
  readonly cooldownMs: number;
}

/**
 * Classic three-state breaker: after `failureThreshold` consecutive failures a provider is not
 * called for `cooldownMs` (so a down or throttling API is not hammered every poll); then a single
 * trial call decides between closing again and another cool-down.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | null = null;
  private trialInFlight = false;
  /** How long the current opening lasts: the cool-down, or longer when the provider asked. */
  private holdMs: number;
  /** When the provider's own ask (a 429, a 418 ban) ends: the part another replica must honour. */
  private askedUntil: number | null = null;

  constructor(
    private readonly options: CircuitBreakerOptions,
    private readonly clock: Clock,
  ) {
    this.holdMs = options.cooldownMs;
  }

  get state(): CircuitState {
    if (this.openedAt === null) return "CLOSED";
    return this.clock.now() - this.openedAt >= this.holdMs ? "HALF_OPEN" : "OPEN";
  }

  /** Whether a call may go out now; in HALF_OPEN only one trial call at a time. */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === "CLOSED") return true;
    if (state === "OPEN" || this.trialInFlight) return false;
    this.trialInFlight = true;
    return true;
  }

  onSuccess(): void {
    this.failures = 0;
    this.openedAt = null;
    this.trialInFlight = false;
    this.holdMs = this.options.cooldownMs;
    this.askedUntil = null;
  }

  /**
   * A failed call. `askedToWaitMs`: the provider throttled us (a 429, an exchange's 418 ban),
   * which opens the circuit at once, for the cool-down or as long as it asked if longer: calling
   * on through a rate limit is what turns an exchange's limit into a longer ban.
   */
  onFailure(askedToWaitMs?: number): void {
    this.trialInFlight = false;
    this.failures++;
    if (askedToWaitMs !== undefined) {
      this.openedAt = this.clock.now();
      this.holdMs = Math.max(this.options.cooldownMs, Math.min(askedToWaitMs, MAX_PROVIDER_HOLD_MS));
      this.askedUntil = this.openedAt + this.holdMs;
      return;
    }
    this.holdMs = this.options.cooldownMs;
    if (this.openedAt !== null || this.failures >= this.options.failureThreshold) this.openedAt = this.clock.now();
  }

  /** Ms until an open circuit lets a trial call through (0 when calls may go out). */
  retryInMs(): number {
    if (this.openedAt === null) return 0;
    return Math.max(0, this.openedAt + this.holdMs - this.clock.now());
  }

  /**
   * Until when the provider asked not to be called (clock ms), while that is still ahead; null
   * otherwise. A cool-down the breaker chose after plain failures is not included: it is this
   * process's judgement, and costs one call elsewhere; a provider's ask ignored costs a longer ban.
   */
  providerHoldUntil(): number | null {
    return this.askedUntil !== null && this.askedUntil > this.clock.now() ? this.askedUntil : null;
  }

  /**
   * Honours a provider's ask recorded elsewhere (by this poller on another replica, or before a
   * restart): open until `untilMs` unless already open at least that long. A past time does nothing;
   * one past MAX_PROVIDER_HOLD_MS from now counts as that (a hold stored before the bound existed).
   */
  holdUntil(askedUntilMs: number): void {
    const now = this.clock.now();
    const untilMs = Math.min(askedUntilMs, now + MAX_PROVIDER_HOLD_MS);
    if (untilMs <= now || (this.openedAt !== null && this.openedAt + this.holdMs >= untilMs)) return;
    this.openedAt = now;
    this.holdMs = untilMs - now;
    this.askedUntil = untilMs;
  }
}
