import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../../src/store/open-store.js";
import { loadConfig } from "../../../src/config/env.js";
import { buildService } from "../../../src/composition/build-service.js";
import type { Route } from "../../../src/http/route.js";
import { KeyIssuer } from "../../../src/application/key-issuer.js";
import { wallClock } from "../../../src/runtime/clocks/clock.js";
import { defaultReplayStart } from "../../../src/feeds/replay/replay-start.js";
import { ASSETS } from "../../../src/domain/signals/signal-keys.js";
import { verdictId } from "../../../src/domain/judiciary/verdict-id.js";
import { createSubscription } from "../../../src/domain/webhooks/subscription.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { dataRoutes, withoutContentBy } from "../../support/route-content.js";
import { startService } from "../../support/service.js";
import { startControlPlane, type ControlPlane } from "./support/dapr-cluster.js";
import { startServiceReplica, type ServiceReplica } from "./support/service-replica.js";
import { waitUntil } from "./support/processes.js";

/**
 * Issue 17 item 7, "a Dapr start is as good as a local start": two replicas of the real service
 * on real daprd 1.16.2 (Redis actor state, one SQLite store file), started together on a fresh
 * cluster with the configuration's default warm-up (14 market days). Within DECISIONS 1's 60 s
 * every landed data route answers 200 with schema-valid content on both replicas; market time
 * runs from REPLAY_START, not from the start of the warm-up; and the warm-up wrote the history a
 * local instance writes (the same regimes and verdicts, slot by slot).
 */
const START_BUDGET_MS = 60_000;
const WARM_UP_DAYS = 14;
const HOUR = 3_600_000;
const SAMPLE_PARAMS: Readonly<Record<string, string>> = { "/v1/market/candles": "asset=BTC", "/v1/ghost/performance": "asset=BTC" };

let plane: ControlPlane;
let replicas: ServiceReplica[] = [];
let routes: readonly Route[];
let storeUrl: string;
let key: string;
let runFrom: number;

beforeAll(async () => {
  plane = await startControlPlane();
  const feed = await sharedReplayFeed();
  runFrom = defaultReplayStart(feed.span());
  const probe = await buildService(loadConfig({ STORE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), "dapr-warm-probe-")), "mis.sqlite")}`, LOG_LEVEL: "silent" }), { feed });
  routes = probe.built.routes;
  await probe.stop();
  ({ storeUrl, key } = await freshStore("warm-up"));
}, 120_000);

afterAll(async () => {
  for (const r of replicas) {
    await r.service.stop("SIGKILL");
    await r.daprd.stop("SIGKILL");
  }
  await plane?.stop();
}, 60_000);

/** A new SQLite store file for a cluster of its own, with a pro key named `name` in it. */
async function freshStore(name: string): Promise<{ storeUrl: string; key: string }> {
  const url = `sqlite:${join(mkdtempSync(join(tmpdir(), `dapr-${name}-`)), "mis.sqlite")}`;
  const store = await openStore(url);
  try {
    return { storeUrl: url, key: (await new KeyIssuer(store.apiKeys, wallClock).create("pro", name, null)).apiKey };
  } finally {
    await store.close();
  }
}

async function call(r: ServiceReplica, route: Route): Promise<Response> {
  const path = SAMPLE_PARAMS[route.path] ? `${route.path}?${SAMPLE_PARAMS[route.path]}` : route.path;
  return fetch(`${r.url}${path}`, { method: route.method.toUpperCase(), headers: route.access.kind === "key" ? { "x-api-key": key } : {} });
}

describe("a fresh Dapr cluster with the default warm-up", () => {
  let startedAt = 0;

  it("answers every landed data route 200 on both replicas within 60 s of start", async () => {
    startedAt = Date.now();
    const env = { REPLAY_WARMUP_DAYS: String(WARM_UP_DAYS) };
    const app = { appId: "mis-warm-up", storeUrl, env };
    const starts = await Promise.allSettled([startServiceReplica(plane, "w-a", app), startServiceReplica(plane, "w-b", app)]);
    replicas = starts.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    const failed = starts.find((s) => s.status === "rejected");
    if (failed !== undefined) throw failed.reason;
    const probes = new Map(replicas.flatMap((r) => dataRoutes(routes).map((route) => [`${r.name} ${route.method} ${route.path}`, { route, call: () => call(r, route) }] as const)));
    const late = await withoutContentBy(probes, startedAt + START_BUDGET_MS);
    expect(late, `routes without real content ${START_BUDGET_MS / 1000} s after start\n${replicas.map((r) => r.output()).join("\n")}`).toEqual([]);
    console.info(`[dapr warm-up] every data route 200 on both replicas after ${Date.now() - startedAt} ms`);
  }, 150_000);

  it("finishes its start-up on both replicas, with market time running from REPLAY_START", async () => {
    for (const r of replicas) {
      await expect.poll(async () => (await fetch(`${r.url}/v1/health/ready`)).status, { timeout: 60_000, interval: 500, message: r.output() }).toBe(200);
    }
    console.info(`[dapr warm-up] both replicas ready after ${Date.now() - startedAt} ms`);
    for (const r of replicas) {
      const res = await fetch(`${r.url}/v1/verdict/latest`, { headers: { "x-api-key": key } });
      const at = Date.parse(((await res.json()) as { timestamp: string }).timestamp);
      // Where a local start runs from, not 14 days before it (issue 17: "14 market days behind").
      expect(at).toBeGreaterThanOrEqual(runFrom - 5 * 60_000);
      expect(at).toBeLessThan(runFrom + 6 * HOUR);
    }
  }, 130_000);

  it("marks a deactivated key's subscription on either replica, with no refusal from the warm-up's stopped host", async () => {
    // One key per replica, each owning a subscription, written to the store the cluster shares.
    const store = await openStore(storeUrl);
    const owners: { replica: ServiceReplica; key: string; subscription: string }[] = [];
    try {
      for (const replica of replicas) {
        const issued = await new KeyIssuer(store.apiKeys, wallClock).create("basic", replica.name, null);
        const subscription = createSubscription({ id: `wh_${replica.name}`, ownerKeyId: issued.record.usageId, url: "https://hooks.example.com/in", events: ["verdict.new"], secret: `whsec_${"C".repeat(32)}`, now: Date.now() });
        await store.webhooks.insertWithinLimit(subscription, 5);
        owners.push({ replica, key: issued.apiKey, subscription: subscription.id });
      }
    } finally {
      await store.close();
    }
    for (const { replica, key: owned } of owners) {
      const res = await fetch(`${replica.url}/v1/keys/current`, { method: "DELETE", headers: { "x-api-key": owned } });
      expect(res.status, replica.output()).toBe(200);
    }
    const after = await openStore(storeUrl);
    try {
      for (const { replica, subscription } of owners) {
        expect(await after.webhooks.get(subscription), replica.name).toMatchObject({ isActive: false, disabledReason: "key_deactivated" });
      }
    } finally {
      await after.close();
    }
    // The founder's warm-up ran the same actor classes on an in-process host, stopped since: its
    // listener used to stay on the service's key lifecycle and log one refusal per subscription.
    for (const r of replicas) expect(r.output()).not.toContain("webhook subscription not marked key_deactivated");
  }, 60_000);

  it("wrote the warm-up history a local instance writes", async () => {
    for (const r of replicas) {
      await r.service.stop("SIGKILL");
      await r.daprd.stop("SIGKILL");
    }
    const local = await startService({ REPLAY_WARMUP_DAYS: String(WARM_UP_DAYS) });
    const localStore = local.service.store;
    const clusterStore = await openStore(storeUrl);
    try {
      const from = runFrom - WARM_UP_DAYS * 24 * HOUR;
      // Up to the last closed hour before REPLAY_START: after it, market time ran on wall time.
      const to = runFrom - HOUR;
      const localRegimes = await localStore.regimeHistory.between(from, to);
      expect(localRegimes.length).toBeGreaterThan(24 * 7);
      expect(await clusterStore.regimeHistory.between(from, to)).toEqual(localRegimes);
      let compared = 0;
      for (const asset of ASSETS) {
        for (let at = runFrom - 3 * 24 * HOUR; at < runFrom; at += HOUR) {
          const id = verdictId(asset, at);
          const mine = await localStore.verdicts.byId(id);
          expect(await clusterStore.verdicts.byId(id), id).toEqual(mine);
          if (mine !== null) compared += 1;
        }
      }
      expect(compared).toBeGreaterThan(4 * 3 * 24 * 0.9);
    } finally {
      await clusterStore.close();
      await local.stop();
    }
  }, 180_000);
});

describe("SIGTERM during the cluster warm-up", () => {
  it("stops the warm-up at its next step and exits 0 within 10 s", async () => {
    const { storeUrl: fresh, key: freshKey } = await freshStore("warm-up-term");
    const r = await startServiceReplica(plane, "w-term", { appId: "mis-warm-up-term", storeUrl: fresh, env: { REPLAY_WARMUP_DAYS: String(WARM_UP_DAYS) } });
    replicas.push(r);
    // Mid-warm-up: the cluster has data (the warm-up writes as it goes) but start-up is not over.
    let last = "";
    await waitUntil("regime data mid-warm-up", async () => {
      const res = await fetch(`${r.url}/v1/regime/current`, { headers: { "x-api-key": freshKey } });
      last = `${res.status} ${await res.text()}`;
      return res.status === 200;
    }, 60_000, r.service).catch((err: unknown) => {
      throw new Error(`${String(err)} last: ${last}`);
    });
    await expect.poll(async () => (await fetch(`${r.url}/v1/health/ready`)).status, { timeout: 5_000, interval: 100 }).toBe(503);
    const sent = Date.now();
    r.service.process.kill("SIGTERM");
    r.daprd.process.kill("SIGTERM");
    const code = await r.serviceExit;
    expect(code, r.output()).toBe(0);
    expect(Date.now() - sent).toBeLessThan(10_000);
  }, 120_000);
});

describe("a founder whose daprd answers nothing for longer than an actor call waits", () => {
  it("keeps holding the cluster's clock and warms the cluster up once daprd answers, instead of running unwarmed", async () => {
    const { storeUrl: fresh, key: lateKey } = await freshStore("warm-up-late");
    // Past the minute an actor call waits for a sidecar that refuses connections (SIDECAR_START_MS),
    // so the founder's first read of the cluster's recording fails.
    const r = await startServiceReplica(plane, "w-late", { appId: "mis-warm-up-late", storeUrl: fresh, daprdDelayMs: 66_000, env: { REPLAY_WARMUP_DAYS: "2" } });
    replicas.push(r);
    // Once the first attempt failed, readiness tells an operator it is failing, not warming up.
    const startup = async (): Promise<string | undefined> => ((await (await fetch(`${r.url}/v1/health/ready`)).json()) as { checks?: { startup?: string } }).checks?.startup;
    await expect.poll(startup, { timeout: 80_000, interval: 250, message: r.output() }).toBe("failed");
    await expect.poll(async () => (await fetch(`${r.url}/v1/health/ready`)).status, { timeout: 90_000, interval: 500, message: r.output() }).toBe(200);
    // Warmed up: the newest verdict is REPLAY_START's, not one of the first hours of the warm-up
    // span with market time running from there on wall time.
    const res = await fetch(`${r.url}/v1/verdict/latest`, { headers: { "x-api-key": lateKey } });
    expect(res.status, r.output()).toBe(200);
    const at = Date.parse(((await res.json()) as { timestamp: string }).timestamp);
    expect(at).toBeGreaterThanOrEqual(runFrom - 5 * 60_000);
    expect(at).toBeLessThan(runFrom + 6 * HOUR);
    const written = await openStore(fresh);
    try {
      // The warm-up's two market days of hourly regimes are in the store.
      expect((await written.regimeHistory.between(runFrom - 2 * 24 * HOUR, runFrom - HOUR)).length).toBeGreaterThanOrEqual(40);
    } finally {
      await written.close();
    }
    expect(r.output()).toContain("cluster warm-up could not begin; trying again while holding the cluster's clock");
  }, 240_000);
});
