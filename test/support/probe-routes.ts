import { z } from "zod";
import { defineRoute, type Route } from "../../src/http/route.js";
import type { AppDeps } from "../../src/http/app-deps.js";

/**
 * Routes that exercise the request pipeline itself (authentication, counting, caching, input
 * validation, fault handling) independently of any capability's data.
 */
export interface ProbeState {
  computed: number;
  /** /v1/probe/slow answers when this resolves (drain tests hold a request in flight). */
  gate?: Promise<void>;
  /** Called when /v1/probe/slow has started, so a test knows the request is in flight. */
  onSlowStarted?: () => void;
}

export function probeRoutes(counter: ProbeState): (deps: AppDeps) => Route[] {
  return () => [
    defineRoute({
      method: "get",
      path: "/v1/probe/cached",
      summary: "probe: keyed, cached 30 s",
      tags: ["probe"],
      access: { kind: "key", tier: "free" },
      cacheTtlSeconds: 30,
      response: z.object({ computed: z.number().int(), cached: z.boolean(), cache_ttl_seconds: z.number().int() }),
      handler: async () => {
        counter.computed += 1;
        return { computed: counter.computed };
      },
    }),
    defineRoute({
      method: "post",
      path: "/v1/probe/echo",
      summary: "probe: validated body and query",
      tags: ["probe"],
      access: { kind: "public" },
      query: z.object({ page: z.coerce.number().int().min(1).default(1) }),
      body: z.object({ n: z.number().int().max(1_000_000), label: z.string().max(10) }),
      response: z.object({ n: z.number(), label: z.string(), page: z.number() }),
      handler: async ({ body, query }) => ({ n: body.n, label: body.label, page: query.page }),
    }),
    defineRoute({
      method: "get",
      path: "/v1/probe/slow",
      summary: "probe: a request that stays in flight until the test releases it",
      tags: ["probe"],
      access: { kind: "public" },
      response: z.object({ done: z.boolean() }),
      handler: async () => {
        counter.onSlowStarted?.();
        await counter.gate;
        return { done: true };
      },
    }),
    defineRoute({
      method: "get",
      path: "/v1/probe/fault",
      summary: "probe: an unexpected fault",
      tags: ["probe"],
      access: { kind: "public" },
      response: z.object({}),
      handler: async () => {
        throw new Error("secret internals: connection string mongodb://user:pw@db");
      },
    }),
  ];
}
