import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../../src/store/open-store.js";
import { KeyIssuer } from "../../../src/application/key-issuer.js";
import { wallClock } from "../../../src/runtime/clocks/clock.js";
import { signalHistoryPageSchema } from "../../../src/http/schemas/signals.js";
import { startControlPlane, startDaprd, TEST_APP_API_TOKEN, type ControlPlane } from "./support/dapr-cluster.js";
import { startChild, waitUntil, type Child } from "./support/processes.js";
import { freePort } from "../../support/free-port.js";

/**
 * The real service (src/main.ts, as an operator runs it) with ACTOR_RUNTIME=dapr behind a real
 * daprd, placement, scheduler and Redis state store, in replay. Two market days of warm-up (on
 * the in-process host, handed to Dapr: dapr-warm-up.test.ts has the default 14), then market time
 * runs at a high REPLAY_SPEED: the MarketData reminder (one market minute) fires every 50 ms of
 * wall time through Dapr's scheduler, and the history grows past what the warm-up wrote.
 */
const REPLAY_SPEED = 1200;

describe("the service on Dapr (ACTOR_RUNTIME=dapr)", () => {
  let plane: ControlPlane;
  let service: Child;
  let daprd: Child;
  let url: string;
  let pro: string;
  let exited: Promise<number | null>;

  beforeAll(async () => {
    plane = await startControlPlane();
    const storeUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), "dapr-service-")), "mis.sqlite")}`;
    // The key is issued on the service's store before it starts, as `npm run cli -- keys create` would.
    const store = await openStore(storeUrl);
    pro = (await new KeyIssuer(store.apiKeys, wallClock).create("pro", "dapr-test", null)).apiKey;
    await store.close();

    const [appPort, httpPort, grpcPort, internalPort, metricsPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    url = `http://127.0.0.1:${appPort}`;
    service = startChild("service", process.execPath, ["--import", "tsx", "src/main.ts"], {
      ...process.env,
      LOG_LEVEL: "info",
      PORT: String(appPort),
      HOST: "127.0.0.1",
      STORE_URL: storeUrl,
      ACTOR_RUNTIME: "dapr",
      DAPR_HTTP_PORT: String(httpPort),
      APP_API_TOKEN: TEST_APP_API_TOKEN,
      MARKET_FEED: "replay",
      REPLAY_SPEED: String(REPLAY_SPEED),
      REPLAY_WARMUP_DAYS: "2",
    });
    exited = new Promise((resolve) => service.process.once("exit", (code) => resolve(code)));
    daprd = startDaprd(plane, "daprd", { appId: "mis-service-test", appPort, httpPort, grpcPort, internalPort, metricsPort }, ["--config", "dapr/config.yaml"], TEST_APP_API_TOKEN);
    await waitUntil("the service to answer /v1/health", async () => (await fetch(`${url}/v1/health`)).ok, 90_000, service).catch((err: unknown) => {
      throw new Error(`${String(err)}\n--- daprd:\n${daprd.output()}`);
    });
  }, 180_000);

  afterAll(async () => {
    await service?.stop("SIGKILL");
    await daprd?.stop();
    await plane?.stop();
  });

  // The history route caches a page for 300 s: each read asks for a different page size.
  let reads = 0;
  const history = async () => {
    const res = await fetch(`${url}/v1/signals/history?signal_key=BTC_RSI&per_page=${100 + reads++}`, { headers: { "x-api-key": pro } });
    expect(res.status).toBe(200);
    return signalHistoryPageSchema.parse(await res.json());
  };

  it("records signals from the MarketData actor's Dapr reminder, and the history grows", async () => {
    // Start-up over (warm-up handed to Dapr, schedules ensured): from here on Dapr's reminders record.
    await waitUntil("start-up to finish", async () => (await fetch(`${url}/v1/health/ready`)).status === 200, 60_000, service);
    let first = 0;
    await waitUntil("recorded signal history", async () => (first = (await history()).total) > 0, 60_000, service);
    const page = await history();
    expect(page.items.length).toBeGreaterThan(0);
    for (const item of page.items) {
      expect(item.signal_key).toBe("BTC_RSI");
      expect(item.value).toBeGreaterThan(0);
      expect(item.value).toBeLessThan(100);
    }
    // BTC_RSI is hourly: at 1200x a market hour passes every 3 s of wall time.
    await waitUntil("the history to grow", async () => (await history()).total > first, 30_000, service);
    // No error logged, but the access log's lines for the readiness polls answered 503 above.
    const errors = service.output().split("\n").filter((line) => /"level":(50|60)/.test(line) && !line.includes('"path":"/v1/health/ready"'));
    expect(errors).toEqual([]);
  }, 120_000);

  it("answers daprd's callback routes only to a caller holding daprd's token (they share the API port)", async () => {
    const call = (method: string, path: string, token?: string) =>
      fetch(`${url}${path}`, { method, headers: { "content-type": "application/json", ...(token === undefined ? {} : { "dapr-api-token": token }) }, ...(method === "GET" ? {} : { body: "{}" }) });
    const forged = [
      ["PUT", "/actors/MarketData/BTC/method/ensureScheduled"],
      ["PUT", "/actors/MarketData/BTC/method/remind/record"],
      ["DELETE", "/actors/MarketData/BTC"],
      ["POST", "/dapr/events/verdict.new"],
      ["GET", "/dapr/config"],
      ["GET", "/dapr/subscribe"],
    ] as const;
    for (const [method, path] of forged) {
      for (const token of [undefined, "wrong", `${TEST_APP_API_TOKEN}x`]) {
        const res = await call(method, path, token);
        // Exactly what an unknown path gets: to a stranger these routes do not exist.
        expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
        expect(await res.json()).toEqual({ detail: "Not Found" });
      }
    }
    // With the token (what daprd sends): the actor configuration, as daprd reads it.
    const config = await call("GET", "/dapr/config", TEST_APP_API_TOKEN);
    expect(config.status).toBe(200);
    expect(((await config.json()) as { entities: string[] }).entities).toContain("MarketData");
    // The app health probe stays open to probes.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    // And daprd's own calls still arrive: the recorded history still grows.
    const before = (await history()).total;
    await waitUntil("the history to grow after the refusals", async () => (await history()).total > before, 30_000, service);
    expect(service.output()).toContain("dapr callback refused");
  }, 60_000);

  it("exits 0 within 10 s of SIGTERM", async () => {
    const started = Date.now();
    service.process.kill("SIGTERM");
    const code = await exited;
    if (code !== 0) throw new Error(`exit code ${String(code)}; the service said:\n${service.output().split("\n").slice(-30).join("\n")}`);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 20_000);
});
