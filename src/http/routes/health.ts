import { defineRoute, type Route } from "../route.js";
import { healthSchema, readinessSchema } from "../schemas/health.js";
import type { AppDeps } from "../app-deps.js";
import type { ReadinessCheck } from "../schemas/health.js";
import { ApiError } from "../error-codes.js";
import { errorSummary } from "../../logging/error-summary.js";

export const INTERFACE_VERSION = "1.0.0";

export function healthRoutes(deps: AppDeps): Route[] {
  /** This replica's own probe: only spares its log one line per probe, so nothing here is shared. */
  let storeFailingSince: string | null = null;
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
          () => {
            if (storeFailingSince !== null) deps.logger.info({ since: storeFailingSince }, "store answering the readiness probe again");
            storeFailingSince = null;
            return "ok" as const;
          },
          (err: unknown) => {
            // Once where it starts, not on every probe; the kind and code, not the message (a
            // driver's message can quote a host or a connection string).
            if (storeFailingSince === null) deps.logger.warn({ err: errorSummary(err) }, "store failing the readiness probe");
            storeFailingSince ??= timestamp;
            return "failed" as const;
          },
        );
        Object.assign(checks, deps.readiness?.() ?? {});
        if (Object.values(checks).some((c) => c !== "ok")) throw new ApiError("not_ready", { checks, timestamp });
        return { status: "ok" as const, checks, timestamp };
      },
    }),
  ];
}
