import { z } from "zod";
import { defineRoute, type Route } from "../../src/http/route.js";
import { loopDelayProbe, loopDelaySchema } from "./loop-delay.js";

/** The body every target answers, so the four measure the same bytes on the wire. */
export const SAMPLE = { ruling: "HOLD", confidence: 0.62, score: 0.11, session_at: "2026-11-22T12:00:00.000Z" };

/**
 * A body the size of the service's larger cached answers (signals and regime history, 9-12 KB of
 * JSON), so the per-hit cost of writing a cached body out is measured, not only the pipeline's.
 */
export const LARGE_SAMPLE = {
  items: Array.from({ length: 100 }, (_, i) => ({
    timestamp: new Date(Date.UTC(2026, 10, 1) + i * 3_600_000).toISOString(),
    ruling: ["HOLD", "ACCUMULATE", "REDUCE"][i % 3] ?? "HOLD",
    score: Math.round(Math.sin(i) * 1000) / 10,
    confidence: 0.5 + (i % 7) / 100,
  })),
};

/** A keyed (Pro), cached route: authentication, quota counting and a cache hit per request. */
export function benchRoutes(): Route[] {
  const loopDelay = loopDelayProbe();
  return [
    defineRoute({
      method: "get",
      path: "/v1/bench/cached",
      summary: "benchmark: keyed cached route",
      tags: ["bench"],
      access: { kind: "key", tier: "pro" },
      cacheTtlSeconds: 3600,
      response: z.object({
        ruling: z.string(),
        confidence: z.number(),
        score: z.number(),
        session_at: z.string(),
        cached: z.boolean(),
        cache_ttl_seconds: z.number().int(),
      }),
      handler: async () => SAMPLE,
    }),
    defineRoute({
      method: "get",
      path: "/v1/bench/cached-large",
      summary: "benchmark: keyed cached route with a 9 KB body",
      tags: ["bench"],
      access: { kind: "key", tier: "pro" },
      cacheTtlSeconds: 3600,
      response: z.object({
        items: z.array(z.object({ timestamp: z.string(), ruling: z.string(), score: z.number(), confidence: z.number() })),
        cached: z.boolean(),
        cache_ttl_seconds: z.number().int(),
      }),
      handler: async () => LARGE_SAMPLE,
    }),
    defineRoute({
      method: "get",
      path: "/v1/bench/loop-delay",
      summary: "benchmark: this process's event-loop delay since the last read",
      tags: ["bench"],
      access: { kind: "public" },
      response: loopDelaySchema,
      handler: async () => loopDelay(),
    }),
  ];
}
