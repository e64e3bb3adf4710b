/**
 * Measures DECISIONS 1's start promise on running replicas, the way the start tests check it:
 * every landed data route answers 200 with a body its own schema accepts. Usage, right after
 * starting them (e.g. `npm run start:dapr`):
 *
 *   npx tsx scripts/probe-start.ts <api_key> <started_at_epoch_ms> <port> [<port> ...]
 *
 * Prints one JSON line with the routes still without content 120 s after the start (none, when
 * the promise holds) and the milliseconds since start, then each replica's readiness time and the
 * latest verdict's timestamp (where market time stands).
 */
import { loadConfig } from "../src/config/env.js";
import { buildService } from "../src/composition/build-service.js";
import { dataRoutes, withoutContentBy } from "../test/support/route-content.js";

const SAMPLE_QUERY: Readonly<Record<string, string>> = { "/v1/market/candles": "asset=BTC", "/v1/ghost/performance": "asset=BTC" };
const BUDGET_MS = 120_000;

const [key = "", startedAtText = "", ...ports] = process.argv.slice(2);
const startedAt = Number(startedAtText);
if (!key || !Number.isFinite(startedAt) || ports.length === 0) {
  console.error("usage: npx tsx scripts/probe-start.ts <api_key> <started_at_epoch_ms> <port> [<port> ...]");
  process.exit(2);
}
// The route table as the service builds it; this instance never listens.
const probe = await buildService(loadConfig({ STORE_URL: "sqlite::memory:", LOG_LEVEL: "silent" }));
const routes = dataRoutes(probe.built.routes);
await probe.stop();
const call = (port: string, path: string, method = "GET") =>
  fetch(`http://127.0.0.1:${port}${path}${SAMPLE_QUERY[path] ? `?${SAMPLE_QUERY[path]}` : ""}`, { method, headers: { "x-api-key": key } });
const probes = new Map(ports.flatMap((port) => routes.map((route) => [`${port} ${route.method} ${route.path}`, { route, call: () => call(port, route.path, route.method.toUpperCase()) }] as const)));
const late = await withoutContentBy(probes, startedAt + BUDGET_MS);
console.log(JSON.stringify({ probes: probes.size, late, ms_since_start: Date.now() - startedAt }));
for (const port of ports) {
  while ((await call(port, "/v1/health/ready").then((r) => r.status, () => 0)) !== 200 && Date.now() < startedAt + BUDGET_MS) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  console.log(JSON.stringify({ port, ready_ms_since_start: Date.now() - startedAt }));
}
const verdict = (await (await call(ports[0] ?? "", "/v1/verdict/latest")).json()) as { timestamp?: string };
console.log(JSON.stringify({ verdict_timestamp: verdict.timestamp ?? null }));
