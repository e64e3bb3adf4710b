import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/env.js";
import { buildService } from "../../../src/composition/build-service.js";
import type { Route } from "../../../src/http/route.js";
import { startChildService, type ChildService } from "../../support/child-service.js";
import { freshStoreUrl } from "../../support/service.js";
import { runCli } from "../../support/cli.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { dataRoutes, withoutContentBy } from "../../support/route-content.js";

/**
 * The promise of DECISIONS 1, checked as an operator would meet it: the service started in
 * replay mode with its defaults answers every landed data route 200, with a body that passes the
 * route's own schema, within 60 seconds of start.
 */
const START_BUDGET_MS = 60_000;

/** Path parameters and required query values for routes that need them. */
const SAMPLE_PARAMS: Readonly<Record<string, string>> = { "/v1/market/candles": "asset=BTC", "/v1/ghost/performance": "asset=BTC" };

let child: ChildService;
let routes: readonly Route[];
let proKey: string;
let startedAt: number;

beforeAll(async () => {
  const store = freshStoreUrl("sqlite", "ready");
  // The route table as the service builds it; nothing listens on this instance.
  const probe = await buildService(loadConfig({ STORE_URL: freshStoreUrl("sqlite", "ready-probe"), LOG_LEVEL: "silent" }), { feed: await sharedReplayFeed() });
  routes = probe.built.routes;
  await probe.stop();
  const created = await runCli(["keys", "create", "--tier", "pro", "--name", "ready"], { STORE_URL: store });
  proKey = /svc_pro_[A-Za-z0-9]{20}/.exec(created.stdout)?.[0] ?? "";
  expect(proKey).not.toBe("");
  startedAt = Date.now();
  // The configuration's default warm-up (the test support turns it off unless asked): this is
  // the start an operator gets.
  child = await startChildService({ STORE_URL: store, REPLAY_WARMUP_DAYS: "14", LOG_LEVEL: "warn" });
}, 120_000);

afterAll(async () => {
  await child?.kill();
});

async function call(route: Route): Promise<Response> {
  const path = SAMPLE_PARAMS[route.path] ? `${route.path}?${SAMPLE_PARAMS[route.path]}` : route.path;
  return fetch(`${child.url}${path}`, {
    method: route.method.toUpperCase(),
    headers: route.access.kind === "key" ? { "x-api-key": proKey } : {},
  });
}

describe("every landed data route, replay mode, default start", () => {
  it("answers 200 with schema-valid, non-empty content within 60 s of start", async () => {
    const data = dataRoutes(routes);
    expect(data.length).toBeGreaterThan(5);
    const late = await withoutContentBy(new Map(data.map((route) => [`${route.method} ${route.path}`, { route, call: () => call(route) }])), startedAt + START_BUDGET_MS);
    expect(late, `routes without real content ${START_BUDGET_MS / 1000} s after start`).toEqual([]);
  }, 120_000);
});
