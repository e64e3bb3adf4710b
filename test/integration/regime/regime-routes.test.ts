import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, startService, type RunningService } from "../../support/service.js";
import { regimeCurrentSchema, regimeHistorySchema } from "../../../src/http/schemas/regime.js";
import { REGIMES } from "../../../src/domain/market/vocabulary.js";

const HOUR = 3_600_000;
const get = (svc: RunningService, path: string, key?: string) => fetch(`${svc.url}${path}`, { headers: key ? { "x-api-key": key } : {} });

/** GET /v1/regime/current and /v1/regime/history after a 7-day warm-up on the bundled data. */
describe("regime routes after a 7-day warm-up", () => {
  let svc: RunningService;
  let keys: Record<"free" | "basic", string>;
  let warmUpMs = 0;

  beforeAll(async () => {
    const started = Date.now();
    svc = await startService({ REPLAY_WARMUP_DAYS: "7" });
    warmUpMs = Date.now() - started;
    keys = { free: await createKey(svc, "free"), basic: await createKey(svc, "basic") };
  }, 120_000);
  afterAll(() => svc.stop());

  it("serves the current regime to a Free key with real, schema-valid content", async () => {
    const res = await get(svc, "/v1/regime/current", keys.free);
    expect(res.status).toBe(200);
    const body = regimeCurrentSchema.parse(await res.json());
    const now = svc.service.deps.marketClock.now();
    const detected = Date.parse(body.detected_at ?? "");
    // The newest hourly bar closed at or before market time, and not more than an hour before it.
    expect(detected).toBeLessThanOrEqual(now);
    expect(detected).toBeGreaterThan(now - 2 * HOUR);
    expect(detected % HOUR).toBe(0);
    const close = svc.service.deps.feed.candles("BTC", "1h", detected, 1)[0]?.c;
    expect(body.btc_price).toBe(close);
    expect(body.strength).toBe(body.confidence >= 0.8 ? "STRONG" : body.confidence >= 0.6 ? "MODERATE" : "WEAK");
    expect(body.breakout_imminent).toBe(body.regime === "LOW_VOLATILITY" && body.confidence >= 0.7);
    expect(Object.keys(body.transition_probabilities ?? {}).sort()).toEqual([...REGIMES].sort());
    // Each entry at 4 decimals: the row sums to 1 within 8 half-units of the 4th decimal.
    expect(Math.abs(Object.values(body.transition_probabilities ?? {}).reduce((a, b) => a + b, 0) - 1)).toBeLessThanOrEqual(0.0004 + 1e-12);
    for (const x of [body.confidence, body.chop_score ?? 0, ...Object.values(body.transition_probabilities ?? {})]) expect(Number(x.toFixed(4))).toBe(x);
    expect(body.compatible_strategies?.length).toBeGreaterThan(0);
    expect(body.cached).toBe(false);
    expect(body.cache_ttl_seconds).toBe(60);
    const again = regimeCurrentSchema.parse(await (await get(svc, "/v1/regime/current", keys.basic)).json());
    expect(again.cached).toBe(true);
    expect(again.regime).toBe(body.regime);
  });

  it("serves 7 days of hourly history to Basic, newest first, paged with the true total", async () => {
    const res = await get(svc, "/v1/regime/history?per_page=500", keys.basic);
    expect(res.status).toBe(200);
    const body = regimeHistorySchema.parse(await res.json());
    expect(body.total).toBeGreaterThanOrEqual(167);
    expect(body.total).toBeLessThanOrEqual(168);
    expect(body.regimes).toHaveLength(body.total);
    const times = body.regimes.map((r) => Date.parse(r.recorded_at));
    for (let i = 1; i < times.length; i++) expect((times[i - 1] ?? 0) - (times[i] ?? 0)).toBe(HOUR);
    const now = svc.service.deps.marketClock.now();
    expect(times[0]).toBeLessThanOrEqual(now);
    expect(times.at(-1)).toBeGreaterThan(now - 7 * 24 * HOUR);
    expect(body.cache_ttl_seconds).toBe(300);
    const current = regimeCurrentSchema.parse(await (await get(svc, "/v1/regime/current", keys.free)).json());
    expect(body.regimes[0]).toEqual({ regime: current.regime, confidence: current.confidence, recorded_at: current.detected_at });

    const page2 = regimeHistorySchema.parse(await (await get(svc, "/v1/regime/history?page=2&per_page=50", keys.basic)).json());
    expect(page2.total).toBe(body.total);
    expect(page2.regimes).toEqual(body.regimes.slice(50, 100));
    const past = regimeHistorySchema.parse(await (await get(svc, "/v1/regime/history?page=9&per_page=50", keys.basic)).json());
    expect(past).toMatchObject({ regimes: [], total: body.total, page: 9, per_page: 50 });
    const far = regimeHistorySchema.parse(await (await get(svc, "/v1/regime/history?page=1000001", keys.basic)).json());
    expect(far).toMatchObject({ regimes: [], total: body.total, page: 1_000_001 });
  });

  it("keeps history Basic-only and rejects out-of-range paging with 422", async () => {
    const free = await get(svc, "/v1/regime/history", keys.free);
    expect(free.status).toBe(403);
    expect(((await free.json()) as { detail: { error: string } }).detail.error).toBe("tier_required");
    expect((await get(svc, "/v1/regime/history?per_page=501", keys.basic)).status).toBe(422);
    expect((await get(svc, "/v1/regime/history?page=0", keys.basic)).status).toBe(422);
    expect((await get(svc, "/v1/regime/current")).status).toBe(401);
  });

  it("warm-up with regime detection stays well inside the 60 s start budget", () => {
    expect(warmUpMs).toBeLessThan(60_000);
  });
});

describe("regime routes before any evaluation exists", () => {
  let svc: RunningService;
  let key: string;

  beforeAll(async () => {
    // Four days into the bundled BTC data: too little history to fit a model, so nothing is evaluated.
    svc = await startService({ REPLAY_START: "2018-01-05" });
    key = await createKey(svc, "basic");
  }, 60_000);
  afterAll(() => svc.stop());

  it("answers 503 warming_up on both routes rather than an invented regime", async () => {
    for (const path of ["/v1/regime/current", "/v1/regime/history"]) {
      const res = await get(svc, path, key);
      expect(res.status, path).toBe(503);
      const body = (await res.json()) as { detail: { error: string; message: string } };
      expect(body.detail.error).toBe("warming_up");
      expect(body.detail.message.length).toBeGreaterThan(10);
    }
  });
});
