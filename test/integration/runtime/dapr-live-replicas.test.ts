import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../../src/store/open-store.js";
import { KeyIssuer } from "../../../src/application/key-issuer.js";
import { wallClock } from "../../../src/runtime/clocks/clock.js";
import { signalsSnapshotSchema } from "../../../src/http/schemas/signals.js";
import { FakeProviderServer, type FakeAnswer } from "../../unit/feeds/live/fake-provider-server.js";
import { startControlPlane, startDaprd, TEST_APP_API_TOKEN, type ControlPlane } from "./support/dapr-cluster.js";
import { startChild, waitUntil, type Child } from "./support/processes.js";
import { freePort } from "../../support/free-port.js";

const H = 3_600_000;
const DAY = 24 * H;

/** The providers' documented answers for a few signals; everything else is down (503). */
function answer(path: string): FakeAnswer {
  const now = Date.now();
  if (path.startsWith("/fng/")) {
    return { body: { data: [{ value: "34", value_classification: "Fear", timestamp: String(Math.floor(now / DAY) * (DAY / 1000)) }], metadata: { error: null } } };
  }
  if (path.startsWith("/api/v3/global")) return { body: { data: { market_cap_percentage: { btc: 57.25 }, updated_at: Math.floor(now / 1000) } } };
  if (path.includes("get_volatility_index_data")) {
    return { body: { jsonrpc: "2.0", result: { data: [[Math.floor(now / H) * H - H, 48, 49, 47, 48.5]], continuation: null } } };
  }
  // Deribit's poll reads DVOL and the options book together; it succeeds only with both.
  if (path.includes("get_book_summary_by_currency")) {
    return { body: { jsonrpc: "2.0", result: [{ instrument_name: "BTC-27MAR27-80000-C", open_interest: 300, creation_timestamp: now - 1000 }] } };
  }
  return { status: 503, body: { error: "unavailable" } };
}

interface Replica {
  readonly url: string;
  /** /metrics listens on its own loopback port (METRICS_PORT), not on the API port. */
  readonly metricsUrl: string;
  readonly service: Child;
  readonly daprd: Child;
}

/**
 * Two replicas of the real service in live mode on Dapr (one app id, placement spreads the poller
 * actors over both), one SQLite store file. Each replica's feed is its own memory; what one
 * replica's pollers fetch reaches the other only through the store's live observation log.
 */
describe("two live replicas on Dapr answer alike wherever the poller actors run", () => {
  let plane: ControlPlane;
  let server: FakeProviderServer;
  const replicas: Replica[] = [];
  let key: string;

  beforeAll(async () => {
    plane = await startControlPlane();
    server = await FakeProviderServer.start();
    server.route(answer);
    const storeUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), "dapr-live-")), "mis.sqlite")}`;
    const store = await openStore(storeUrl);
    // Pro: its per-minute limit (counted across both replicas through the store) leaves room for
    // a read a second on each replica.
    key = (await new KeyIssuer(store.apiKeys, wallClock).create("pro", "replicas-test", null)).apiKey;
    await store.close();
    for (const name of ["a", "b"]) {
      const [appPort, httpPort, grpcPort, internalPort, metricsPort, appMetricsPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort(), freePort()]);
      const service = startChild(`replica-${name}`, process.execPath, ["--import", "tsx", "test/integration/runtime/fixtures/live-replica.ts"], {
        ...process.env,
        LOG_LEVEL: "warn",
        PORT: String(appPort),
        HOST: "127.0.0.1",
        METRICS_PORT: String(appMetricsPort),
        STORE_URL: storeUrl,
        ACTOR_RUNTIME: "dapr",
        DAPR_HTTP_PORT: String(httpPort),
        APP_API_TOKEN: TEST_APP_API_TOKEN,
        MARKET_FEED: "live",
        FAKE_PROVIDER_URL: server.url,
      });
      const daprd = startDaprd(plane, `daprd-${name}`, { appId: "mis-live-replicas", appPort, httpPort, grpcPort, internalPort, metricsPort }, ["--config", "dapr/config.yaml"], TEST_APP_API_TOKEN);
      const replica = { url: `http://127.0.0.1:${appPort}`, metricsUrl: `http://127.0.0.1:${appMetricsPort}/metrics`, service, daprd };
      replicas.push(replica);
      await waitUntil(`replica ${name} to answer /v1/health`, async () => (await fetch(`${replica.url}/v1/health`)).ok, 90_000, service).catch((err: unknown) => {
        throw new Error(`${String(err)}\n--- daprd:\n${daprd.output()}`);
      });
      // The second replica joins once the first has scheduled every poller. It then serves what
      // they fetched only through the store (loaded at its start, pulled every 5 s after), while
      // placement may move some pollers to it. Two start-ups racing a rebalance stalled both in
      // about one run of five: a Dapr start-up issue recorded in docs/decisions.md, not this test's.
      if (name === "a") {
        await waitUntil(
          "replica a to schedule all 18 pollers",
          async () => /mis_actor_active\{type="MarketPoller"\} 18\b/.test(await (await fetch(replica.metricsUrl)).text()),
          120_000,
          service,
        );
      }
    }
  }, 240_000);

  afterAll(async () => {
    for (const r of replicas) await r.service.stop("SIGKILL");
    for (const r of replicas) await r.daprd.stop();
    await plane?.stop();
    await server?.close();
  });

  const snapshot = async (r: Replica) => {
    const res = await fetch(`${r.url}/v1/signals/latest`, { headers: { "x-api-key": key } });
    return new Map(signalsSnapshotSchema.parse(await res.json()).signals.map((s) => [s.key, s]));
  };

  /** Each replica's view and output, for a failure message. */
  const describeAll = async () => {
    const parts: string[] = [];
    for (const [i, r] of replicas.entries()) {
      const live = [...(await snapshot(r).catch(() => new Map()))].filter(([, v]) => v.status !== "DEAD").map(([k]) => k);
      const bars = async (asset: string) => {
        const res = await fetch(`${r.url}/v1/market/candles?asset=${asset}&interval=1h&limit=3`, { headers: { "x-api-key": key } }).catch(() => null);
        return res ? res.text() : "unreachable";
      };
      const metrics = await fetch(r.metricsUrl).then((res) => res.text()).catch(() => "");
      const pollers = metrics.split("\n").filter((l) => l.includes("MarketPoller") && !l.startsWith("#")).join("\n");
      parts.push(`--- replica ${i}: live ${live.join(",")}\nBTC bars ${await bars("BTC")}\nETH bars ${await bars("ETH")}\n${pollers}\n${r.service.output()}\n--- daprd ${i}:\n${r.daprd.output()}`);
    }
    return parts.join("\n");
  };

  it("both replicas serve every signal any poller fetched, each provider polled once in the cluster", async () => {
    for (const r of replicas) {
      let seen = "";
      const deadline = Date.now() + 120_000;
      for (;;) {
        const s = await snapshot(r).catch(() => new Map<string, { value: number | null; status: string }>());
        seen = JSON.stringify([...s].filter(([, x]) => x.status !== "DEAD").map(([k, x]) => [k, x.value, x.status]));
        const all =
          s.get("FEAR_GREED_INDEX")?.value === 34 &&
          s.get("BTC_DOMINANCE")?.value === 57.25 &&
          s.get("DVOL")?.value === 48.5 &&
          s.get("BTC_OPEN_INTEREST")?.status === "LIVE" &&
          s.get("BTC_RSI")?.status === "LIVE";
        if (all) break;
        if (r.service.process.exitCode !== null || Date.now() > deadline) {
          throw new Error(`every fetched signal LIVE on this replica (its snapshot cache lasts 30 s): not after 120 s\nsignals seen: ${seen}\nprovider requests: ${server.requests.join(" ")}\n${await describeAll()}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
    // One activation per poller actor in the cluster: the hourly alternative.me poll ran once,
    // yet both replicas' own feeds hold its reading, so one of them got it through the store.
    expect(server.requests.filter((p) => p.startsWith("/fng/"))).toHaveLength(1);
    for (const r of replicas) expect(r.service.output()).not.toMatch(/"level":(50|60)/);
  }, 280_000);
});
