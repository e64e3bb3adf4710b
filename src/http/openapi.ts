import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";
import type { Route } from "./route.js";
import { accessErrorSchema, plainErrorSchema, serverErrorSchema, validationErrorSchema } from "./schemas/common.js";
import { INTERFACE_VERSION } from "./routes/health.js";

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

/** DECISIONS 2: validation list, plain `detail` string for the framework's statuses, coded object otherwise. */
function defaultErrorSchema(status: number): z.ZodType {
  if (status === 422) return validationErrorSchema;
  if (status === 500) return serverErrorSchema;
  if ([400, 404, 405, 413, 415].includes(status)) return plainErrorSchema;
  return accessErrorSchema;
}

/** Builds the OpenAPI 3.1 document from the same route definitions that serve requests. */
export function buildOpenApi(routes: readonly Route[], serverUrl: string): object {
  const registry = new OpenAPIRegistry();
  registry.registerComponent("securitySchemes", "ApiKey", { type: "apiKey", in: "header", name: "X-API-Key" });
  for (const r of routes) {
    const errorStatuses = new Set<number>(r.errorStatuses ?? []);
    if (r.access.kind === "key") [401, 403, 429].forEach((s) => errorStatuses.add(s));
    if (r.query || r.body || r.params) errorStatuses.add(422);
    if (r.body) [400, 413, 415].forEach((s) => errorStatuses.add(s));
    [405, 500].forEach((s) => errorStatuses.add(s));
    const responses: Record<string, { description: string; content?: Record<string, { schema: z.ZodType }> }> = {
      [String(r.successStatus ?? 200)]: { description: "Success", content: { "application/json": { schema: r.response } } },
    };
    for (const s of [...errorStatuses].sort()) {
      const schema = r.errorSchemas?.[s] ?? defaultErrorSchema(s);
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
  }
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
