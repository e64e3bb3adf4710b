import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { loadConfig } from "../../src/config/env.js";
import { buildService } from "../../src/composition/build-service.js";
import { benchRoutes, LARGE_SAMPLE, SAMPLE } from "./cached-route.js";
import { loopDelayProbe } from "./loop-delay.js";
import { calibrationKey, verdictEvaluationKey } from "../../src/actors/evidence-actor.js";
import { ASSETS } from "../../src/domain/signals/signal-keys.js";
import { COUNCIL_ASSETS } from "../../src/actors/council-actor.js";

/**
 * One benchmark target in its own process, so the load generator does not share its event loop.
 * Prints one JSON line {port, key?} on stdout once listening.
 */
const kind = process.argv[2];
const storeUrl = process.argv[3] ?? "sqlite::memory:";
const bytes = Buffer.from(JSON.stringify({ ...SAMPLE, cached: true, cache_ttl_seconds: 3599 }));
const largeBytes = Buffer.from(JSON.stringify({ ...LARGE_SAMPLE, cached: true, cache_ttl_seconds: 3599 }));

function announce(port: number, key?: string): void {
  process.stdout.write(`${JSON.stringify({ port, key })}\n`);
}

if (kind === "node-http") {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": bytes.length });
    res.end(bytes);
  });
  server.listen(0, "127.0.0.1", () => announce((server.address() as AddressInfo).port));
} else if (kind === "express") {
  const app = express();
  app.get("/v1/bench/cached", (_req, res) => {
    res.type("application/json").send(bytes);
  });
  app.get("/v1/bench/cached-large", (_req, res) => {
    res.type("application/json").send(largeBytes);
  });
  const loopDelay = loopDelayProbe();
  app.get("/v1/bench/loop-delay", (_req, res) => {
    res.json(loopDelay());
  });
  const server = app.listen(0, "127.0.0.1", () => announce((server.address() as AddressInfo).port));
  // An orderly exit, as the service's, so a run under `node --cpu-prof` writes its profile.
  process.on("SIGTERM", () => process.exit(0));
} else if (kind === "service") {
  const config = loadConfig({
    STORE_URL: storeUrl,
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "silent",
    REPLAY_WARMUP_DAYS: "0",
    QUOTA_PRO_PER_DAY: "1000000000",
    RATE_LIMIT_PRO_PER_MINUTE: "1000000000",
  });
  const service = await buildService(config, { routeSets: [benchRoutes] });
  const port = await service.listen();
  // Measure the route, not the warm-up: with market history to replay, the warm-up fits regime
  // models on this event loop (seconds of CPU), and a load round that overlapped it stalled.
  await service.warmedUp;
  // And the evidence catch-up: each EvidenceActor's first turn rebuilds its walk-forward stream
  // from 2023 on (tens of seconds of CPU, once per start). The bench measures the steady state
  // (actors on their schedules), not that one-off catch-up.
  const evidence = service.deps.store.evidence;
  const keys = [...ASSETS.map(verdictEvaluationKey), ...COUNCIL_ASSETS.map((asset) => calibrationKey({ kind: "council", asset }))];
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline && (await Promise.all(keys.map((k) => evidence.get(k)))).some((d) => d === null)) {
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const issued = await service.deps.keyIssuer.create("pro", "bench", null);
  announce(port, issued.apiKey);
  process.on("SIGTERM", () => {
    void service.stop().then(() => process.exit(0));
  });
} else {
  process.stderr.write(`unknown target ${String(kind)}\n`);
  process.exit(2);
}
