/** Why a provider call failed; decides whether a retry can help. */
export type ProviderErrorKind = "timeout" | "rate_limited" | "http" | "malformed" | "network" | "circuit_open" | "rpc";

export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly kind: ProviderErrorKind,
    message: string,
    /** HTTP status where there was one. */
    readonly status?: number,
    /** The provider's Retry-After (a 429; an exchange's 418 ban), in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(`${provider}: ${message}`);
    this.name = "ProviderError";
  }

  /** Timeouts, 429, 5xx and network faults are transient; a malformed payload or a 4xx is not. */
  get retryable(): boolean {
    if (this.kind === "http") return this.status !== undefined && this.status >= 500;
    return this.kind === "timeout" || this.kind === "rate_limited" || this.kind === "network";
  }
}
