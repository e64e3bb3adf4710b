import { describe, expect, expectTypeOf, it } from "vitest";
import { API_ERRORS, ApiError, type ErrorCode } from "../../../src/http/error-codes.js";
import { defineRoute, type Caller } from "../../../src/http/route.js";
import { z } from "zod";

/** What the API answered before the table existed (DECISIONS 2; pinned by the HTTP suites too). */
const ANSWERS: { [C in ErrorCode]: { error: ApiError<C>; status: number; body: unknown; headers?: Record<string, string> } } = {
  missing_api_key: {
    error: new ApiError("missing_api_key"),
    status: 401,
    body: { detail: { error: "missing_api_key", message: "This endpoint needs an API key in the X-API-Key header." } },
  },
  invalid_api_key: { error: new ApiError("invalid_api_key"), status: 401, body: { detail: { error: "invalid_api_key", message: "The API key is not valid." } } },
  key_inactive: { error: new ApiError("key_inactive"), status: 401, body: { detail: { error: "key_inactive", message: "The API key has been deactivated." } } },
  tier_required: {
    error: new ApiError("tier_required", { required: "pro", current: "free", upgradeUrl: "http://x/#pricing" }),
    status: 403,
    body: { detail: { error: "tier_required", message: "This endpoint needs the pro tier or higher.", required_tier: "pro", current_tier: "free", upgrade_url: "http://x/#pricing" } },
  },
  daily_limit_exceeded: {
    error: new ApiError("daily_limit_exceeded", { limit: 100, callsToday: 100, resetAt: "2026-01-02T00:00:00.000Z", upgradeUrl: "http://x/#pricing", retryAfterSeconds: 3600 }),
    status: 429,
    body: {
      detail: {
        error: "daily_limit_exceeded",
        message: "Daily limit of 100 calls reached; it resets at 00:00 UTC.",
        calls_today: 100,
        limit: 100,
        reset_at: "2026-01-02T00:00:00.000Z",
        upgrade_url: "http://x/#pricing",
      },
    },
    headers: { "Retry-After": "3600" },
  },
  rate_limit_exceeded: {
    error: new ApiError("rate_limit_exceeded", { per: "key", limit: 60, windowSeconds: 60, retryAfterSeconds: 12.2 }),
    status: 429,
    body: { detail: { error: "rate_limit_exceeded", message: "Rate limit of 60 requests per 60 s exceeded.", limit: 60, window_seconds: 60, retry_after_seconds: 13 } },
    headers: { "Retry-After": "13" },
  },
  validation_failed: {
    error: new ApiError("validation_failed", { issues: [{ loc: ["query", "page"], msg: "Too small", type: "greater_than_equal" }] }),
    status: 422,
    body: { detail: [{ loc: ["query", "page"], msg: "Too small", type: "greater_than_equal" }] },
  },
  json_invalid: { error: new ApiError("json_invalid"), status: 422, body: { detail: [{ loc: ["body"], msg: "Request body is not valid JSON", type: "json_invalid" }] } },
  json_content_type: {
    error: new ApiError("json_content_type"),
    status: 422,
    body: { detail: [{ loc: ["body"], msg: "Content-Type must be application/json", type: "json_invalid" }] },
  },
  json_not_object: { error: new ApiError("json_not_object"), status: 422, body: { detail: [{ loc: ["body"], msg: "Request body must be a JSON object", type: "json_invalid" }] } },
  json_too_deep: { error: new ApiError("json_too_deep"), status: 422, body: { detail: [{ loc: ["body"], msg: "Request body nests deeper than 32 levels", type: "json_invalid" }] } },
  payload_too_large: { error: new ApiError("payload_too_large"), status: 413, body: { detail: "Request body too large (limit 64 KiB)" } },
  unsupported_media_type: { error: new ApiError("unsupported_media_type"), status: 415, body: { detail: "Unsupported request body encoding" } },
  bad_content_encoding: { error: new ApiError("bad_content_encoding"), status: 400, body: { detail: "Request body does not match its Content-Encoding" } },
  malformed_body: { error: new ApiError("malformed_body"), status: 400, body: { detail: "Malformed request body" } },
  body_aborted: { error: new ApiError("body_aborted"), status: 400, body: { detail: "Request body aborted" } },
  not_found: { error: new ApiError("not_found"), status: 404, body: { detail: "Not Found" } },
  method_not_allowed: { error: new ApiError("method_not_allowed", { allow: "GET, HEAD" }), status: 405, body: { detail: "Method Not Allowed" }, headers: { Allow: "GET, HEAD" } },
  webhook_not_found: {
    error: new ApiError("webhook_not_found"),
    status: 404,
    body: { detail: { error: "webhook_not_found", message: "No webhook with this id belongs to this API key." } },
  },
  webhook_limit_reached: {
    error: new ApiError("webhook_limit_reached", { limit: 5 }),
    status: 409,
    body: { detail: { error: "webhook_limit_reached", message: "An API key may hold at most 5 webhooks.", limit: 5 } },
  },
  newsletter_rejected: { error: new ApiError("newsletter_rejected"), status: 400, body: { detail: "Invalid request." } },
  invalid_email: { error: new ApiError("invalid_email"), status: 400, body: { detail: "Invalid e-mail address." } },
  newsletter_rate_limited: {
    error: new ApiError("newsletter_rate_limited", { limit: 3, windowSeconds: 3600, retryAfterSeconds: 1800 }),
    status: 429,
    body: { detail: "Too many requests: at most 3 per 60 minutes from one address. Try again in 1800 s." },
    headers: { "Retry-After": "1800" },
  },
  warming_up: {
    error: new ApiError("warming_up", { message: "No regime has been evaluated yet." }),
    status: 503,
    body: { detail: { error: "warming_up", message: "No regime has been evaluated yet." } },
  },
  not_ready: {
    error: new ApiError("not_ready", { checks: { store: "ok", startup: "failed" }, timestamp: "2026-01-01T00:00:00.000Z" }),
    status: 503,
    body: { status: "unavailable", checks: { store: "ok", startup: "failed" }, timestamp: "2026-01-01T00:00:00.000Z" },
  },
  tao_council_unavailable: {
    error: new ApiError("tao_council_unavailable"),
    status: 503,
    body: { error: "tao_council_unavailable", message: "The stored TAO council verdict cannot be read right now; try again shortly." },
  },
  internal: { error: new ApiError("internal", { requestId: "abc-1" }), status: 500, body: { detail: "Internal Server Error", request_id: "abc-1" } },
};

describe("the table of error codes", () => {
  it.each(Object.keys(ANSWERS) as ErrorCode[])("%s answers its status, body and headers", (code) => {
    const { error, status, body, headers } = ANSWERS[code];
    expect(error.code).toBe(code);
    expect(error.status).toBe(status);
    expect(error.body).toEqual(body);
    expect(error.headers).toEqual(headers ?? {});
  });

  it("documents every body it builds with the schema OpenAPI shows", () => {
    for (const code of Object.keys(ANSWERS) as ErrorCode[]) {
      expect(API_ERRORS[code].schema.safeParse(ANSWERS[code].error.body).success, code).toBe(true);
    }
  });

  it("hands a keyed route's handler a caller that is never null", () => {
    defineRoute({
      method: "get",
      path: "/v1/probe/keyed",
      summary: "probe",
      tags: ["probe"],
      access: { kind: "key", tier: "free" },
      response: z.object({ owner: z.string() }),
      handler: async ({ caller }) => {
        expectTypeOf(caller).toEqualTypeOf<Caller>();
        return { owner: caller.key.id };
      },
    });
    defineRoute({
      method: "get",
      path: "/v1/probe/public",
      summary: "probe",
      tags: ["probe"],
      access: { kind: "public" },
      response: z.object({ ok: z.boolean() }),
      handler: async ({ caller }) => {
        expectTypeOf(caller).toEqualTypeOf<null>();
        return { ok: true };
      },
    });
  });
});
