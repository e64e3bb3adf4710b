import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import type { Route } from "./route.js";
import { schemaOf, statusOf, type ErrorCode } from "./error-codes.js";
import { INTERFACE_VERSION } from "./routes/health.js";
import { deliveryHeadersSchema, WEBHOOK_EVENT_PAYLOADS, webhookEnvelopeSchema } from "./schemas/webhook-events.js";
import type { WebhookEventType } from "../domain/webhooks/event-types.js";

const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "Missing, unknown or inactive API key",
  403: "Tier required",
  404: "Not found",
  409: "Conflict",
  405: "Method not allowed (the Allow header lists the methods)",
  413: "Body over 64 KiB",
  415: "Unsupported body encoding or charset",
  422: "Validation failed",
  429: "Quota or rate limit exceeded",
  500: "Unexpected fault",
  503: "Not available yet or dependency down",
};

/** What every keyed route may answer before its handler runs (the router's key check). */
const KEY_ERRORS: readonly ErrorCode[] = ["missing_api_key", "invalid_api_key", "key_inactive"];
/** What reading a request body may answer (the JSON parser, error-handler.ts). */
const BODY_ERRORS: readonly ErrorCode[] = ["json_invalid", "json_content_type", "json_not_object", "json_too_deep", "bad_content_encoding", "malformed_body", "body_aborted", "payload_too_large", "unsupported_media_type"];
/** What any route may answer. */
const ANY_ROUTE_ERRORS: readonly ErrorCode[] = ["method_not_allowed", "internal"];

/** What a keyed route's access checks may refuse: the tier, the daily quota and the rate limits it is held to. */
function accessErrorsOf(r: Route): ErrorCode[] {
  const a = r.access;
  if (a.kind !== "key") return [];
  // A count-only route (reading, revoking or rotating the calling key) is never refused by the
  // quota or the per-minute limit; only its own limits refuse it.
  const countOnly = a.quota === "count-only";
  return [
    ...KEY_ERRORS,
    ...(a.tier === "free" ? [] : (["tier_required"] as const)),
    ...(countOnly ? [] : (["daily_limit_exceeded"] as const)),
    ...(!countOnly || (a.limits?.length ?? 0) > 0 ? (["rate_limit_exceeded"] as const) : []),
  ];
}

/** Every error a route may answer: the pipeline's (by its access and inputs) and its handler's. */
function errorsOf(r: Route): ErrorCode[] {
  return [
    ...(r.errors ?? []),
    ...accessErrorsOf(r),
    ...(r.query || r.body || r.params ? (["validation_failed"] as const) : []),
    // Every route but GET reads a body, when one is sent, through the same parser and its limits.
    ...(r.body || r.method !== "get" ? BODY_ERRORS : []),
    // A path parameter that does not percent-decode (`/v1/webhooks/%ZZ`) names no resource.
    ...(r.path.includes("{") ? (["not_found"] as const) : []),
    ...ANY_ROUTE_ERRORS,
  ];
}

/** The documented body of each status a route may answer, from the error-code table. */
function errorSchemasOf(r: Route): Map<number, z.ZodType> {
  const byStatus = new Map<number, z.ZodType[]>();
  for (const code of errorsOf(r)) {
    const schemas = byStatus.get(statusOf(code)) ?? [];
    if (!schemas.includes(schemaOf(code))) schemas.push(schemaOf(code));
    byStatus.set(statusOf(code), schemas);
  }
  return new Map([...byStatus].map(([status, schemas]) => [status, schemas.length === 1 ? (schemas[0] as z.ZodType) : z.union(schemas)]));
}

/**
 * Each event a subscriber may receive, under OpenAPI 3.1's `webhooks`: its envelope, its `data`
 * (the schemas the event tests validate against) and the signature headers, so a generated client
 * types the deliveries as it types the answers.
 */
function registerWebhookEvents(registry: OpenAPIRegistry): void {
  for (const [event, { summary, data }] of Object.entries(WEBHOOK_EVENT_PAYLOADS) as [WebhookEventType, (typeof WEBHOOK_EVENT_PAYLOADS)[WebhookEventType]][]) {
    registry.registerWebhook({
      method: "post",
      path: event,
      summary,
      tags: ["webhooks"],
      request: {
        headers: deliveryHeadersSchema,
        body: { required: true, content: { "application/json": { schema: webhookEnvelopeSchema(event, data) } } },
      },
      responses: {
        "200": { description: "Received: any 2xx within 10 seconds. Anything else, or no answer, is a failure: retried after 5 s, 25 s and 125 s; after 10 failures in a row the subscription is disabled (is_active false, disabled_reason consecutive_failures)" },
        "410": { description: "Gone: the subscription is disabled at once" },
      },
    });
  }
}

/** Builds the OpenAPI 3.1 document from the same route definitions that serve requests. */
export function buildOpenApi(routes: readonly Route[], serverUrl: string): object {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "ApiKey", { type: "apiKey", in: "header", name: "X-API-Key" });
  for (const r of routes) {
    const errorSchemas = errorSchemasOf(r);
    const responses: Record<string, { description: string; content?: Record<string, { schema: z.ZodType }> }> = {
      [String(r.successStatus ?? 200)]: { description: "Success", content: { "application/json": { schema: r.response } } },
    };
    for (const [s, schema] of [...errorSchemas].sort(([a], [b]) => a - b)) {
      responses[String(s)] = { description: STATUS_TEXT[s] ?? "Error", content: { "application/json": { schema } } };
    }
    registry.registerPath({
      method: r.method,
      path: r.path,
      summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
      tags: [...r.tags],
      ...(r.access.kind === "key" ? { security: [{ ApiKey: [] }], "x-tier": r.access.tier } : {}),
      request: {
        ...(r.query instanceof z.ZodObject ? { query: r.query } : {}),
        ...(r.params instanceof z.ZodObject ? { params: r.params } : {}),
        // Required unless the schema itself accepts no body (POST /v1/webhooks/test).
        ...(r.body ? { body: { required: !r.body.safeParse(undefined).success, content: { "application/json": { schema: r.body } } } } : {}),
      },
      responses,
    });
    if (r.method === "get" && r.documentHead) {
      registry.registerPath({
        method: "head",
        path: r.path,
        summary: `${r.summary}: headers only`,
        tags: [...r.tags],
        // The GET's statuses and headers, never a body.
        responses: Object.fromEntries(Object.entries(responses).map(([status, { description }]) => [status, { description }])),
      });
    }
  }
  registerWebhookEvents(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Market Intelligence API",
      version: INTERFACE_VERSION,
      description:
        "Crypto market intelligence: 27 signals, HMM market regimes, Judiciary Engine and council rulings, public Ghost Trader track records and signed webhooks. Paper trading only; nothing here is financial advice.",
    },
    servers: [{ url: serverUrl }],
  });
}
