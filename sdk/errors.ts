/** A non-2xx answer, with the service's error code lifted out of its `detail` envelope. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    /**
     * `detail.error` (e.g. tier_required, warming_up) or a bare body's `error`
     * (tao_council_unavailable); `validation_error` for a 422 whose `detail` lists the problems
     * (the SDK's name: the service sends the list, read it from `body.detail`); null for plain
     * errors and for the readiness 503, whose body is the readiness report itself (read
     * `status === 503` and `body`).
     */
    readonly code: string | null,
    message: string,
    /** The parsed JSON body, or the raw text when it was not JSON. */
    readonly body: unknown,
    /** Seconds from the Retry-After header, when the service sent one. */
    readonly retryAfterSeconds: number | null,
  ) {
    super(message);
    this.name = "ApiRequestError";
  }

  /** The tier the endpoint needs, from a 403 tier_required body. */
  get requiredTier(): string | null {
    const detail = detailOf(this.body);
    return typeof detail?.required_tier === "string" ? detail.required_tier : null;
  }
}

/** A body that is itself `{error, message}`, as SPEC gives the TAO council's 503. */
function unwrapped(body: unknown): Record<string, unknown> | null {
  if (typeof body !== "object" || body === null || Array.isArray(body) || "detail" in body) return null;
  const record = body as Record<string, unknown>;
  return typeof record.error === "string" ? record : null;
}

function detailOf(body: unknown): Record<string, unknown> | null {
  if (typeof body !== "object" || body === null || !("detail" in body)) return null;
  const detail = (body as { detail: unknown }).detail;
  return typeof detail === "object" && detail !== null && !Array.isArray(detail) ? (detail as Record<string, unknown>) : null;
}

/**
 * Builds the error from a response body: `{detail: {error, message}}`, `{detail: string}`,
 * `{detail: [issues]}`, or SPEC's unwrapped `{error, message}` (tao_council_unavailable).
 */
export function errorFromBody(status: number, body: unknown, retryAfterSeconds: number | null): ApiRequestError {
  const detail = detailOf(body) ?? unwrapped(body);
  if (detail) {
    const code = typeof detail.error === "string" ? detail.error : null;
    const message = typeof detail.message === "string" ? detail.message : `HTTP ${status}`;
    return new ApiRequestError(status, code, message, body, retryAfterSeconds);
  }
  if (typeof body === "object" && body !== null && "detail" in body) {
    const raw = (body as { detail: unknown }).detail;
    if (typeof raw === "string") return new ApiRequestError(status, null, raw, body, retryAfterSeconds);
    if (Array.isArray(raw)) return new ApiRequestError(status, "validation_error", `Validation failed: ${JSON.stringify(raw)}`, body, retryAfterSeconds);
  }
  return new ApiRequestError(status, null, `HTTP ${status}`, body, retryAfterSeconds);
}
