import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MarketIntelClient } from "../../../sdk/client.js";
import { ApiRequestError } from "../../../sdk/errors.js";
import { createKey, startService, type RunningService } from "../../support/service.js";

let svc: RunningService;

beforeAll(async () => {
  // Two market days of warm-up, so every data route below answers with real content: without
  // history the checks could only read shapes an empty service satisfies as well.
  svc = await startService({ RATE_LIMIT_FREE_PER_MINUTE: "3", REPLAY_WARMUP_DAYS: "2" });
});

afterAll(async () => {
  await svc?.stop();
});

const HOUR_S = 3600;

describe("SDK against the running service", () => {
  it("reads health and generates a free key that then works", async () => {
    const client = new MarketIntelClient({ baseUrl: svc.url });
    expect(await client.health()).toMatchObject({ status: "ok", version: "1.0.0" });
    const issued = await client.generateKey({ name: "SDK test", email: "sdk@example.com" });
    expect(issued).toMatchObject({ tier: "free", daily_limit: 100 });
    expect(issued.api_key).toMatch(/^svc_free_[A-Za-z0-9]{20}$/);
    const keyed = client.withKey(issued.api_key);
    expect(keyed.apiKey).toBe(issued.api_key);
    const c = await keyed.candles({ asset: "BTC", interval: "1h", limit: 5 });
    expect(c).toMatchObject({ asset: "BTC", interval: "1h", cached: false });
    expect(c.cache_ttl_seconds).toBeGreaterThan(0);
    // The five newest closed hours, oldest first, each a real bar.
    expect(c.candles).toHaveLength(5);
    expect(c.candles.map((k) => k.t - (c.candles[0]?.t ?? 0))).toEqual([0, 1, 2, 3, 4].map((i) => i * HOUR_S));
    for (const k of c.candles) {
      expect(k.h).toBeGreaterThanOrEqual(Math.max(k.o, k.c));
      expect(k.l).toBeLessThanOrEqual(Math.min(k.o, k.c));
      expect(k.l).toBeGreaterThan(0);
    }
    expect((c.candles[4]?.t ?? 0) * 1000).toBeLessThanOrEqual(svc.service.deps.marketClock.now() - HOUR_S * 1000);
  });

  it("returns the public ghost data as typed values", async () => {
    const client = new MarketIntelClient({ baseUrl: svc.url });
    const stats = await client.ghostStats();
    // A fresh ledger: every integrity check passes and nothing is counted yet.
    expect(stats).toMatchObject({ validated_trades: 0, total_pnl: 0, win_rate: 0, sprint: 1, tests_passing: 10 });
    expect(stats.since).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const tao = await client.taoStatus();
    expect(tao.taoPrice).toBeGreaterThan(0);
    expect(tao.paperMode).toBe(true);
    const { gatesMet, trigger, liquidityStatus: _status, ...gates } = tao.gates;
    // gatesMet counts the eight gates that hold, and a trader waiting names the first that fails.
    expect(Object.keys(gates)).toHaveLength(8);
    expect(gatesMet).toBe(Object.values(gates).filter((g) => g === true).length);
    expect(trigger === null).toBe(gatesMet === 8);
    for (const asset of ["BTC", "ETH", "SOL", "TAO"] as const) {
      const record = await client.trackRecord(asset);
      expect(record.stats.totalTrades).toBe(record.trades.length);
    }
    const taoRecord = await client.trackRecord("TAO");
    expect(taoRecord.stats).toMatchObject({ paperValidationTarget: 10, validatedPaperTrades: 0 });
  });

  it("reads regime stats, agent performance, macro correlation and signal weights as typed data", async () => {
    const anonymous = new MarketIntelClient({ baseUrl: svc.url });
    const free = anonymous.withKey(await createKey(svc, "free"));
    // No trade has closed yet (the traders stand aside), so the stats say so rather than invent.
    expect(await free.regimeStats()).toMatchObject({ regimes: [], best_regime: null, worst_regime: null, total_trades: 0, overall_win_rate: 0 });
    expect(await free.agentPerformance()).toMatchObject({ asset: "BTC", trades_analyzed: 0, agents: [] });
    const pro = anonymous.withKey(await createKey(svc, "pro"));
    const macro = await pro.macroCorrelation();
    expect(macro.signals.map((x) => x.key).sort()).toEqual(["BTC_NASDAQ_CORR", "DXY", "GOLD", "NASDAQ", "US10Y"]);
    expect(["RISK_ON", "NEUTRAL", "RISK_OFF"]).toContain(macro.assessment);
    const weights = await pro.signalWeights({ regime: "BULL_TRENDING" });
    expect(weights).toMatchObject({ regime: "BULL_TRENDING", weights: [], window_size: 50 });
    const verdict = await pro.verdict();
    expect(["STRONG_BUY", "BUY", "ACCUMULATE", "HOLD", "REDUCE", "SELL", "STRONG_SELL"]).toContain(verdict.ruling);
    expect(verdict.confidence).toBeGreaterThan(0);
    expect(verdict.confidence).toBeLessThan(1);
    expect(verdict.btc_price).toBeGreaterThan(0);
    await expect(anonymous.regimeStats()).rejects.toMatchObject({ status: 401, code: "missing_api_key" });
    await expect(free.signalWeights()).rejects.toMatchObject({ status: 403, code: "tier_required", requiredTier: "pro" });
  });

  it("reads, rotates and revokes its key, reads both health probes, subscribes to the newsletter and runs the TAO council", async () => {
    const anonymous = new MarketIntelClient({ baseUrl: svc.url });
    expect(await anonymous.healthLive()).toMatchObject({ status: "ok" });
    expect(await anonymous.healthReady()).toMatchObject({ status: "ok", checks: expect.any(Object) });
    expect(await anonymous.subscribeNewsletter({ email: "sdk-reader@example.com" })).toEqual({ message: expect.any(String) });
    const old = anonymous.withKey(await createKey(svc, "pro"));
    const rotated = await old.rotateKey();
    expect(rotated).toMatchObject({ tier: "pro", daily_limit: 10_000 });
    expect(rotated.api_key).toMatch(/^svc_pro_/);
    await expect(old.taoCouncil()).rejects.toMatchObject({ status: 401, code: "key_inactive" });
    const current = anonymous.withKey(rotated.api_key);
    // The warm-up's sessions: the run answers the latest stored verdict.
    const run = await current.runTaoCouncil();
    expect(run.success).toBe(true);
    expect(run.verdict?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(run.verdict?.snapshotSignals.tao_price).toBeGreaterThan(0);
    expect(run.verdict?.confidence).toBeGreaterThan(0);
    // The old key's calls (rotate, the refused council read) and the new one's count together.
    const status = await current.currentKey();
    expect(status).toMatchObject({ tier: "pro", key_prefix: rotated.key_prefix, daily_limit: 10_000, per_minute_limit: expect.any(Number) });
    expect(status.calls_today).toBe(3);
    expect(status.remaining_today).toBe(10_000 - 3);
    expect(await current.revokeKey()).toEqual({ deactivated: true });
    await expect(current.taoCouncil()).rejects.toMatchObject({ status: 401, code: "key_inactive" });
  });

  it("lifts access errors out of the detail envelope", async () => {
    const anonymous = new MarketIntelClient({ baseUrl: svc.url });
    await expect(anonymous.verdict()).rejects.toMatchObject({ status: 401, code: "missing_api_key" });
    const free = anonymous.withKey(await createKey(svc, "free"));
    const err = await free.signals().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiRequestError);
    expect(err).toMatchObject({ status: 403, code: "tier_required", requiredTier: "basic" });
    await expect(anonymous.withKey("svc_free_AAAAAAAAAAAAAAAAAAAA").verdict()).rejects.toMatchObject({ status: 401, code: "invalid_api_key" });
    // A 422 carries the service's list of problems; the SDK names it, as its documentation says.
    const pro = anonymous.withKey(await createKey(svc, "pro"));
    const invalid = await pro.request("GET", "/v1/market/candles", { query: { asset: "DOGE" } }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 422, code: "validation_error", body: { detail: [expect.objectContaining({ loc: expect.arrayContaining(["asset"]) })] } });
  });

  it("surfaces Retry-After from a real per-minute limit and does not wait longer than allowed", async () => {
    const sleeps: number[] = [];
    const client = new MarketIntelClient({ baseUrl: svc.url, apiKey: await createKey(svc, "free"), maxRetryAfterSeconds: 0, sleep: async (ms) => void sleeps.push(ms) });
    let limited: unknown;
    for (let i = 0; i < 5 && !limited; i++) {
      limited = await client.candles({ asset: "BTC", limit: 1 }).then(
        () => undefined,
        (e: unknown) => (e instanceof ApiRequestError && e.status === 429 ? e : undefined),
      );
    }
    expect(limited).toMatchObject({ status: 429, code: "rate_limit_exceeded" });
    expect((limited as ApiRequestError).retryAfterSeconds).toBeGreaterThan(0);
    // Retry-After above maxRetryAfterSeconds: thrown at once, never slept on.
    expect(sleeps).toEqual([]);
  });
});

describe("SDK retries", () => {
  let server: Server;
  let baseUrl: string;
  let hits = 0;
  let methods: string[] = [];
  /** `drop`: the request arrives, and its answer is lost with the connection. */
  let script: { status: number; headers?: Record<string, string>; body: unknown; drop?: boolean }[] = [];

  beforeAll(async () => {
    // A scripted HTTP server: the only way to make the service answer 429-then-200 on cue.
    server = createServer((req, res) => {
      const next = script[Math.min(hits, script.length - 1)];
      hits++;
      methods.push(req.method ?? "");
      if (next?.drop === true) {
        req.socket.destroy();
        return;
      }
      res.writeHead(next?.status ?? 500, { "content-type": "application/json", ...(next?.headers ?? {}) });
      res.end(JSON.stringify(next?.body ?? {}));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const health = { status: "ok", version: "1.0.0", environment: "test", timestamp: "2026-01-01T00:00:00Z" };
  const limited = (retryAfter?: string) => ({
    status: 429,
    ...(retryAfter ? { headers: { "retry-after": retryAfter } } : {}),
    body: { detail: { error: "rate_limit_exceeded", message: "Slow down." } },
  });

  it("waits exactly Retry-After seconds, then succeeds", async () => {
    hits = 0;
    script = [limited("2"), limited("1"), { status: 200, body: health }];
    const sleeps: number[] = [];
    const client = new MarketIntelClient({ baseUrl, sleep: async (ms) => void sleeps.push(ms) });
    expect(await client.health()).toEqual(health);
    expect(sleeps).toEqual([2000, 1000]);
    expect(hits).toBe(3);
  });

  it("honours an HTTP-date Retry-After", async () => {
    hits = 0;
    // HTTP dates have whole seconds, so "two seconds from now" is 1 to 2 seconds away.
    script = [limited(new Date(Date.now() + 2000).toUTCString()), { status: 200, body: health }];
    const sleeps: number[] = [];
    expect(await new MarketIntelClient({ baseUrl, sleep: async (ms) => void sleeps.push(ms) }).health()).toEqual(health);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(1000);
    expect(sleeps[0]).toBeLessThanOrEqual(2000);
    expect(hits).toBe(2);
  });

  it("does not retry a 429 or 503 without Retry-After, and gives up after maxRetries", async () => {
    hits = 0;
    script = [limited()];
    await expect(new MarketIntelClient({ baseUrl, sleep: async () => undefined }).health()).rejects.toMatchObject({ status: 429 });
    expect(hits).toBe(1);
    hits = 0;
    script = [limited("1")];
    await expect(new MarketIntelClient({ baseUrl, maxRetries: 2, sleep: async () => undefined }).health()).rejects.toMatchObject({ status: 429, retryAfterSeconds: 1 });
    expect(hits).toBe(3);
  });

  it("sends a read again when its answer is lost, but never a write whose outcome is unknown", async () => {
    const issued = { api_key: "svc_free_AAAAAAAAAAAAAAAAAAAA", name: "n", tier: "free", daily_limit: 100, created_at: "2026-01-01T00:00:00Z" };
    const client = new MarketIntelClient({ baseUrl, sleep: async () => undefined });
    hits = 0;
    methods = [];
    script = [{ status: 0, body: null, drop: true }, { status: 200, body: health }];
    expect(await client.health()).toEqual(health);
    expect(methods).toEqual(["GET", "GET"]);
    // The service may have issued the key (shown once) or rotated it: sending it again would
    // lose the answer the caller needed, so the failure goes to the caller instead.
    for (const lost of [{ status: 0, body: null, drop: true }, { status: 502, body: {} }, { status: 504, body: {} }]) {
      for (const send of [() => client.generateKey({ name: "n", email: "n@example.com" }), () => client.request("POST", "/v1/keys/rotate")]) {
        hits = 0;
        methods = [];
        script = [lost, { status: 201, body: issued }];
        await expect(send()).rejects.toBeDefined();
        expect(methods).toEqual(["POST"]);
      }
    }
    // A refusal that says when to come back was made before the service acted: safe to repeat.
    hits = 0;
    methods = [];
    script = [limited("1"), { status: 201, body: issued }];
    expect(await client.generateKey({ name: "n", email: "n@example.com" })).toEqual(issued);
    expect(methods).toEqual(["POST", "POST"]);
  });
});

describe("SDK against a service whose stored TAO verdict cannot be read", () => {
  let damaged: RunningService;

  beforeAll(async () => {
    // A day of warm-up stores TAO council sessions; then the newest one is damaged in the real
    // SQLite file, under the running service (a row a failed disk or a bad restore left).
    damaged = await startService({ REPLAY_WARMUP_DAYS: "1" });
    const file = damaged.service.deps.config.STORE_URL.replace(/^sqlite:/, "");
    const db = new Database(file);
    try {
      expect(db.prepare("UPDATE council_sessions SET body = '{\"damaged\":true}' WHERE asset = 'TAO'").run().changes).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  afterAll(async () => {
    await damaged?.stop();
  });

  it("reads the code and message of SPEC's unwrapped tao_council_unavailable", async () => {
    const key = await createKey(damaged, "pro");
    const raw = await fetch(`${damaged.url}/v1/tao/council`, { headers: { "x-api-key": key } });
    expect(raw.status).toBe(503);
    // SPEC's one unwrapped error body: {error, message} at the top level, not under `detail`.
    const body = (await raw.json()) as { error: string; message: string };
    expect(body.error).toBe("tao_council_unavailable");
    expect(body.message.length).toBeGreaterThan(0);
    const error = await new MarketIntelClient({ baseUrl: damaged.url, apiKey: key, sleep: async () => undefined }).taoCouncil().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ status: 503, code: "tao_council_unavailable", message: body.message });
  });
});
