import { defineRoute, type Route } from "../route.js";
import { healthSchema, readinessSchema } from "../schemas/health.js";
import type { AppDeps } from "../app-deps.js";
import type { ReadinessCheck } from "../schemas/health.js";
import { ApiError } from "../error-codes.js";

export const INTERFACE_VERSION = "1.0.0";

export function healthRoutes(deps: AppDeps): Route[] {
  const health = async () => ({
    status: "ok",
    version: INTERFACE_VERSION,
    environment: deps.config.ENVIRONMENT,
    timestamp: new Date(deps.wallClock.now()).toISOString(),
  });
  return [
    defineRoute({
      method: "get",
      path: "/v1/health",
      summary: "Health check",
      tags: ["health"],
      access: { kind: "public" },
      documentHead: true,
      response: healthSchema,
      handler: health,
    }),
    defineRoute({
      method: "get",
      path: "/v1/health/live",
      summary: "Liveness probe (same body as /v1/health)",
      tags: ["health"],
      access: { kind: "public" },
      response: healthSchema,
      handler: health,
    }),
    defineRoute({
      method: "get",
      path: "/v1/health/ready",
      summary: "Readiness probe: 200 when the store answers, start-up is done and actor turns complete, else 503 naming the failed check",
      tags: ["health"],
      access: { kind: "public" },
      response: readinessSchema,
      errors: ["not_ready"],
      handler: async () => {
        const timestamp = new Date(deps.wallClock.now()).toISOString();
        const checks: Record<string, ReadinessCheck> = {};
        checks.store = await deps.store.ping().then(
          () => "ok" as const,
          () => "failed" as const,
        );
        Object.assign(checks, deps.readiness?.() ?? {});
        if (Object.values(checks).some((c) => c !== "ok")) throw new ApiError("not_ready", { checks, timestamp });
        return { status: "ok" as const, checks, timestamp };
      },
    }),
  ];
}
