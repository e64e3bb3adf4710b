import type { Route } from "../../src/http/route.js";

/** A data route of one running service, and how to call it there. */
export interface RouteProbe {
  readonly route: Route;
  readonly call: () => Promise<Response>;
}

/** Landed data routes: no path parameter, and GET (or the council run, which answers data). */
export function dataRoutes(routes: readonly Route[]): Route[] {
  return routes.filter((r) => !r.path.includes("{") && (r.method === "get" || r.path === "/v1/tao/council/run"));
}

/**
 * Calls every probe once a second until each has answered 200 with a body its route's own schema
 * accepts, or until `deadline` (epoch ms). Returns the probes that never did, each with its last
 * answer: DECISIONS 1's start promise, as an operator meets it.
 */
export async function withoutContentBy(probes: ReadonlyMap<string, RouteProbe>, deadline: number): Promise<string[]> {
  const pending = new Map(probes);
  const failures = new Map<string, string>();
  while (pending.size > 0 && Date.now() < deadline) {
    for (const [name, { route, call }] of pending) {
      const res = await call().catch((err: unknown) => ({ status: 0, json: async (): Promise<unknown> => String(err) }));
      const body: unknown = await res.json();
      if (res.status !== 200) {
        failures.set(name, `${res.status} ${JSON.stringify(body).slice(0, 200)}`);
        continue;
      }
      const parsed = route.response.safeParse(body);
      if (!parsed.success) {
        failures.set(name, `schema: ${parsed.error.message.slice(0, 300)}`);
        continue;
      }
      pending.delete(name);
    }
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return [...pending.keys()].map((name) => `${name}: ${failures.get(name) ?? "never answered"}`);
}
