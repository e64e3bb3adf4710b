import type { z } from "zod";
import type { Tier } from "../domain/access/tiers.js";
import { accessErrorSchema, plainErrorSchema, serverErrorSchema, validationErrorSchema } from "./schemas/common.js";
import { taoCouncilUnavailableSchema } from "./schemas/council.js";
import { readinessSchema, type ReadinessCheck } from "./schemas/health.js";
import { MAX_JSON_DEPTH } from "./middleware/json-depth.js";

type Headers = Readonly<Record<string, string>>;

/** One fault of a 422 list (DECISIONS 2, FastAPI's shape). */
export interface ValidationIssue {
  readonly loc: (string | number)[];
  readonly msg: string;
  readonly type: string;
}

/** One error the API can answer: its status, its documented body, and how body and headers are built. */
interface ErrorEntry<A> {
  readonly status: number;
  /** The body's shape as /v1/openapi.json documents it. */
  readonly schema: z.ZodType;
  readonly body: (args: A, code: string) => unknown;
  readonly headers?: (args: A) => Headers;
}

/** Whole seconds, at least one: what Retry-After and `retry_after_seconds` carry. */
function wholeSeconds(seconds: number): number {
  return Math.max(1, Math.ceil(seconds));
}

function retryAfter(seconds: number): Headers {
  return { "Retry-After": String(wholeSeconds(seconds)) };
}

/** `{detail: {error, message, ...fields}}`: access and domain errors (DECISIONS 2). */
function coded<A = undefined>(
  status: number,
  message: (args: A) => string,
  fields: (args: A) => Readonly<Record<string, unknown>> = () => ({}),
  headers?: (args: A) => Headers,
): ErrorEntry<A> {
  return { status, schema: accessErrorSchema, body: (a, code) => ({ detail: { error: code, message: message(a), ...fields(a) } }), ...(headers ? { headers } : {}) };
}

/** `{detail: "..."}`: the framework's statuses, and the newsletter's answers SPEC.md words so. */
function plain<A = undefined>(status: number, detail: (args: A) => string, headers?: (args: A) => Headers): ErrorEntry<A> {
  return { status, schema: plainErrorSchema, body: (a) => ({ detail: detail(a) }), ...(headers ? { headers } : {}) };
}

/** What a refused keyed request over its daily quota is told. */
export interface DailyLimitFacts {
  readonly limit: number;
  readonly callsToday: number;
  /** ISO instant of the next 00:00 UTC. */
  readonly resetAt: string;
  readonly upgradeUrl: string;
  readonly retryAfterSeconds: number;
}

/** What a request over a per-window limit is told; `per` says whose limit it was. */
export interface RateLimitFacts {
  readonly per: "key" | "address";
  readonly limit: number;
  readonly windowSeconds: number;
  readonly retryAfterSeconds: number;
}

/**
 * Every error the API answers, by code: the one table of DECISIONS 2's contract. Call sites
 * name a code and give its facts (`new ApiError("webhook_not_found")`); the status, the wording
 * and the body's shape live here, and the OpenAPI document is built from the same entries.
 */
export const API_ERRORS = {
  // Access: authentication, tier, quota and rate limits.
  missing_api_key: coded(401, () => "This endpoint needs an API key in the X-API-Key header."),
  invalid_api_key: coded(401, () => "The API key is not valid."),
  key_inactive: coded(401, () => "The API key has been deactivated."),
  tier_required: coded(
    403,
    (a: { readonly required: Tier; readonly current: Tier; readonly upgradeUrl: string }) => `This endpoint needs the ${a.required} tier or higher.`,
    (a) => ({ required_tier: a.required, current_tier: a.current, upgrade_url: a.upgradeUrl }),
  ),
  daily_limit_exceeded: coded(
    429,
    (a: DailyLimitFacts) => `Daily limit of ${a.limit} calls reached; it resets at 00:00 UTC.`,
    (a) => ({ calls_today: a.callsToday, limit: a.limit, reset_at: a.resetAt, upgrade_url: a.upgradeUrl }),
    (a) => retryAfter(a.retryAfterSeconds),
  ),
  rate_limit_exceeded: coded(
    429,
    (a: RateLimitFacts) =>
      a.per === "key" ? `Rate limit of ${a.limit} requests per ${a.windowSeconds} s exceeded.` : `At most ${a.limit} requests per ${a.windowSeconds} s from one address.`,
    (a) => ({ limit: a.limit, window_seconds: a.windowSeconds, retry_after_seconds: wholeSeconds(a.retryAfterSeconds) }),
    (a) => retryAfter(a.retryAfterSeconds),
  ),

  // Input: every fault in one list; a body that is not JSON is one of them.
  validation_failed: { status: 422, schema: validationErrorSchema, body: (a: { readonly issues: readonly ValidationIssue[] }) => ({ detail: a.issues }) } satisfies ErrorEntry<{ readonly issues: readonly ValidationIssue[] }>,
  json_invalid: {
    status: 422,
    schema: validationErrorSchema,
    body: (_a: undefined) => ({ detail: [{ loc: ["body"], msg: "Request body is not valid JSON", type: "json_invalid" }] }),
  } satisfies ErrorEntry<undefined>,
  // A body under another Content-Type (`curl -d` sends form-urlencoded): the body may be perfect
  // JSON, so "not valid JSON" pointed at the wrong fault. Still `json_invalid` (DECISIONS 2).
  json_content_type: {
    status: 422,
    schema: validationErrorSchema,
    body: (_a: undefined) => ({ detail: [{ loc: ["body"], msg: "Content-Type must be application/json", type: "json_invalid" }] }),
  } satisfies ErrorEntry<undefined>,
  // Valid JSON, but a string, number, boolean or null: "not valid JSON" sent callers hunting for a
  // syntax error that is not there. Still `json_invalid`: no body schema of ours takes a scalar.
  json_not_object: {
    status: 422,
    schema: validationErrorSchema,
    body: (_a: undefined) => ({ detail: [{ loc: ["body"], msg: "Request body must be a JSON object", type: "json_invalid" }] }),
  } satisfies ErrorEntry<undefined>,
  // Nested deeper than any body of ours, refused before it is parsed (json-depth.ts).
  json_too_deep: {
    status: 422,
    schema: validationErrorSchema,
    body: (_a: undefined) => ({ detail: [{ loc: ["body"], msg: `Request body nests deeper than ${MAX_JSON_DEPTH} levels`, type: "json_invalid" }] }),
  } satisfies ErrorEntry<undefined>,

  // Request bodies the parser refuses.
  payload_too_large: plain(413, () => "Request body too large (limit 64 KiB)"),
  unsupported_media_type: plain(415, () => "Unsupported request body encoding"),
  bad_content_encoding: plain(400, () => "Request body does not match its Content-Encoding"),
  malformed_body: plain(400, () => "Malformed request body"),
  body_aborted: plain(400, () => "Request body aborted"),

  // Paths and methods.
  not_found: plain(404, () => "Not Found"),
  method_not_allowed: plain(405, () => "Method Not Allowed", (a: { readonly allow: string }) => ({ Allow: a.allow })),

  // Webhooks (DECISIONS 5): another key's id is answered like a missing one.
  webhook_not_found: coded(404, () => "No webhook with this id belongs to this API key."),
  webhook_limit_reached: coded(
    409,
    (a: { readonly limit: number }) => `An API key may hold at most ${a.limit} webhooks.`,
    (a) => ({ limit: a.limit }),
  ),

  // Newsletter (SPEC.md words its answers as plain strings).
  newsletter_rejected: plain(400, () => "Invalid request."),
  invalid_email: plain(400, () => "Invalid e-mail address."),
  newsletter_rate_limited: plain(
    429,
    (a: Omit<RateLimitFacts, "per">) =>
      `Too many requests: at most ${a.limit} per ${a.windowSeconds / 60} minutes from one address. Try again in ${wholeSeconds(a.retryAfterSeconds)} s.`,
    (a) => retryAfter(a.retryAfterSeconds),
  ),

  // Not available: nothing computed yet, not ready, a dependency down.
  warming_up: coded(503, (a: { readonly message: string }) => a.message),
  not_ready: {
    status: 503,
    schema: readinessSchema,
    body: (a: { readonly checks: Readonly<Record<string, ReadinessCheck>>; readonly timestamp: string }) => ({ status: "unavailable", checks: a.checks, timestamp: a.timestamp }),
  } satisfies ErrorEntry<{ readonly checks: Readonly<Record<string, ReadinessCheck>>; readonly timestamp: string }>,
  // SPEC's TAO council error is the coded object without the `detail` wrapper.
  tao_council_unavailable: {
    status: 503,
    schema: taoCouncilUnavailableSchema,
    body: (_a: undefined, code: string) => ({ error: code, message: "The stored TAO council verdict cannot be read right now; try again shortly." }),
  } satisfies ErrorEntry<undefined>,

  // Anything unexpected: the request id finds the log line; internals never reach the body.
  internal: { status: 500, schema: serverErrorSchema, body: (a: { readonly requestId: string }) => ({ detail: "Internal Server Error", request_id: a.requestId }) } satisfies ErrorEntry<{
    readonly requestId: string;
  }>,
};

export type ErrorCode = keyof typeof API_ERRORS;

/** The facts a code's body is built from; undefined for codes whose body is fixed. */
export type ErrorFacts<C extends ErrorCode> = (typeof API_ERRORS)[C] extends ErrorEntry<infer A> ? A : never;

/** Constructor arguments after the code: none for a fixed body, else its facts. */
type FactsArgs<C extends ErrorCode> = ErrorFacts<C> extends undefined ? [] : [facts: ErrorFacts<C>];

/** The status of a code, for the OpenAPI document. */
export function statusOf(code: ErrorCode): number {
  return API_ERRORS[code].status;
}

/** The documented body of a code, for the OpenAPI document. */
export function schemaOf(code: ErrorCode): z.ZodType {
  return API_ERRORS[code].schema;
}

/** A JSON error answer, thrown by handlers and middleware alike and answered by the error handler. */
export class ApiError<C extends ErrorCode = ErrorCode> extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Headers;

  constructor(
    readonly code: C,
    ...args: FactsArgs<C>
  ) {
    // One entry, whichever code: its functions take this code's facts, which args holds.
    const entry = API_ERRORS[code] as ErrorEntry<unknown>;
    super(`HTTP ${entry.status} ${code}`);
    const facts: unknown = args[0];
    this.status = entry.status;
    this.body = entry.body(facts, code);
    this.headers = entry.headers?.(facts) ?? {};
  }
}
