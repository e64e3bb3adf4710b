import type { SignalReading } from "../../domain/signals/reading.js";
import type { Clock } from "../../runtime/clocks/clock.js";
import { CircuitBreaker, type CircuitBreakerOptions, type CircuitState } from "./circuit-breaker.js";
import { ProviderError, type ProviderErrorKind } from "./provider-error.js";
import { withRetry, type RetryOptions } from "./retry.js";

/**
 * Per-provider health as this process sees it. No route serves it (SPEC's health body is fixed);
 * the operator reads the same through mis_live_polls_total, mis_live_provider_hold_until_seconds
 * and the "failing" / "answering again" log lines (docs/operations.md).
 */
export interface ProviderHealth {
  readonly provider: string;
  readonly circuit: CircuitState;
  readonly lastSuccessAt: number | null;
  readonly lastFailureAt: number | null;
  readonly lastError: { readonly kind: ProviderErrorKind | "unknown"; readonly message: string } | null;
  readonly consecutiveFailures: number;
}

export interface ResilienceOptions {
  readonly retry: RetryOptions;
  readonly breaker: CircuitBreakerOptions;
}

export const DEFAULT_RESILIENCE: ResilienceOptions = {
  retry: { attempts: 3, baseDelayMs: 500, maxDelayMs: 10_000 },
  breaker: { failureThreshold: 5, cooldownMs: 60_000 },
};

/** Outcome of one poll: readings, or nothing with the reason. A failed poll never throws. */
export type PollResult<T = SignalReading> =
  | { readonly ok: true; readonly readings: readonly T[] }
  | { readonly ok: false; readonly error: ProviderError };

/** What can be wrapped: a signal ReadingProvider, or a FigureProvider (T = NetworkFigure). */
export interface PolledSource<T> {
  readonly id: string;
  poll(): Promise<readonly T[]>;
}

/**
 * Wraps a provider with retries (transient faults only), a circuit breaker and health tracking.
 * A failure yields no readings, so the affected signals simply age into STALE and DEAD — nothing
 * is filled in, and nothing is thrown to the polling schedule.
 */
export class ResilientProvider<T = SignalReading> {
  private readonly breaker: CircuitBreaker;
  private lastSuccessAt: number | null = null;
  private lastFailureAt: number | null = null;
  private lastError: ProviderHealth["lastError"] = null;
  private consecutiveFailures = 0;

  constructor(
    private readonly inner: PolledSource<T>,
    private readonly clock: Clock,
    private readonly options: ResilienceOptions = DEFAULT_RESILIENCE,
  ) {
    this.breaker = new CircuitBreaker(options.breaker, clock);
  }

  get id(): string {
    return this.inner.id;
  }

  async poll(): Promise<PollResult<T>> {
    if (!this.breaker.tryAcquire()) {
      return {
        ok: false,
        error: new ProviderError(this.id, "circuit_open", `circuit open, next trial in ${this.breaker.retryInMs()} ms`),
      };
    }
    try {
      const readings = await withRetry(() => this.inner.poll(), this.options.retry);
      this.breaker.onSuccess();
      this.lastSuccessAt = this.clock.now();
      this.consecutiveFailures = 0;
      return { ok: true, readings };
    } catch (err) {
      const error =
        err instanceof ProviderError
          ? err
          : new ProviderError(this.id, "network", err instanceof Error ? err.message : "unknown failure");
      this.breaker.onFailure(error.kind === "rate_limited" ? (error.retryAfterMs ?? 0) : undefined);
      this.lastFailureAt = this.clock.now();
      this.consecutiveFailures++;
      this.lastError = { kind: error.kind, message: error.message };
      return { ok: false, error };
    }
  }

  /** See CircuitBreaker.providerHoldUntil: the provider's ask, for the poller actor to persist. */
  providerHoldUntil(): number | null {
    return this.breaker.providerHoldUntil();
  }

  /** See CircuitBreaker.holdUntil: an ask recorded by another process, honoured here. */
  holdUntil(untilMs: number): void {
    this.breaker.holdUntil(untilMs);
  }

  health(): ProviderHealth {
    return {
      provider: this.id,
      circuit: this.breaker.state,
      lastSuccessAt: this.lastSuccessAt,
      lastFailureAt: this.lastFailureAt,
      lastError: this.lastError,
      consecutiveFailures: this.consecutiveFailures,
    };
  }
}
