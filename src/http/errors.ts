/** A JSON error answer: status, body and headers. Thrown by handlers and middleware alike. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

export type AccessErrorCode =
  | "missing_api_key"
  | "invalid_api_key"
  | "key_inactive"
  | "tier_required"
  | "daily_limit_exceeded"
  | "rate_limit_exceeded";

const ACCESS_STATUS: Record<AccessErrorCode, number> = {
  missing_api_key: 401,
  invalid_api_key: 401,
  key_inactive: 401,
  tier_required: 403,
  daily_limit_exceeded: 429,
  rate_limit_exceeded: 429,
};

/** Authentication, tier and quota errors: `{detail: {error, message, ...}}` (DECISIONS 2). */
export function accessError(
  code: AccessErrorCode,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): ApiError {
  return new ApiError(ACCESS_STATUS[code], { detail: { error: code, message, ...extra } }, headers);
}

/** Domain errors with a code, e.g. webhook_not_found (404), webhook_limit_reached (409), not_ready (503). */
export function codedError(status: number, error: string, message: string, extra: Record<string, unknown> = {}): ApiError {
  return new ApiError(status, { detail: { error, message, ...extra } });
}

export interface ValidationIssue {
  readonly loc: (string | number)[];
  readonly msg: string;
  readonly type: string;
}

export function validationError(issues: ValidationIssue[]): ApiError {
  return new ApiError(422, { detail: issues });
}

export function rateLimited(limit: number, windowSeconds: number, retryAfterSeconds: number, message: string): ApiError {
  const retry = Math.max(1, Math.ceil(retryAfterSeconds));
  return accessError(
    "rate_limit_exceeded",
    message,
    { limit, window_seconds: windowSeconds, retry_after_seconds: retry },
    { "Retry-After": String(retry) },
  );
}
