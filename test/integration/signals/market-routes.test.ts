import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, freshStoreUrl, startService, type RunningService, type StoreKind } from "../../support/service.js";
import { candlesResponseSchema, macroCorrelationSchema, signalsSnapshotSchema } from "../../../src/http/schemas/signals.js";
import { validationErrorSchema } from "../../../src/http/schemas/common.js";
import { defaultReplayStart } from "../../../src/feeds/replay/replay-start.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";

interface Detail {
  detail: { error: string; required_tier?: string };
}

/** GET /v1/signals/latest, /v1/macro/correlation and /v1/market/candles at the default replay start. */
describe.each<StoreKind>(["sqlite", "mongodb"])("market data routes on %s", (kind) => {
  let svc: RunningService;
  let keys: Record<"free" | "basic" | "pro", string>;
  let start: number;
  const get = (path: string, key?: string) => fetch(`${svc.url}${path}`, { headers: key ? { "x-api-key": key } : {} });

  beforeAll(async () => {
    svc = await startService({ STORE_URL: freshStoreUrl(kind, "sigroutes") });
    keys = { free: await createKey(svc, "free"), basic: await createKey(svc, "basic"), pro: await createKey(svc, "pro") };
    start = defaultReplayStart((await sharedReplayFeed()).span());
  });
  afterAll(() => svc.stop());

  it("serves the 27-signal snapshot to Basic with real LIVE values at the replay start", async () => {
    const res = await get("/v1/signals/latest", keys.basic);
    expect(res.status).toBe(200);
    const body = signalsSnapshotSchema.parse(await res.json());
    expect(body.signals).toHaveLength(27);
    expect(body.live_count + body.stale_count + body.dead_count).toBe(27);
    // DECISIONS 7 lists 17 replay signals; DVOL and HASH_RIBBON data end before the default start.
    expect(body.live_count).toBeGreaterThanOrEqual(15);
    expect(body.coverage_pct).toBeCloseTo((body.live_count / 27) * 100, 1);
    const at = Date.parse(body.timestamp);
    expect(at).toBeGreaterThanOrEqual(start);
    expect(at).toBeLessThan(start + 6 * 3_600_000);
    const byKey = new Map(body.signals.map((s) => [s.key, s]));
    for (const key of ["BTC_RSI", "BTC_EMA200_DISTANCE", "FEAR_GREED_INDEX", "US10Y", "DXY", "GOLD", "MVRV_ZSCORE", "BTC_FUNDING_RATE"] as const) {
      const s = byKey.get(key);
      expect(s?.status, key).toBe("LIVE");
      expect(Number.isFinite(s?.value), key).toBe(true);
      expect(Date.parse(s?.last_updated ?? "")).toBeLessThanOrEqual(at);
    }
    const rsi = byKey.get("BTC_RSI")?.value ?? -1;
    expect(rsi).toBeGreaterThan(0);
    expect(rsi).toBeLessThan(100);
    // No real replay source: DEAD, never invented.
    for (const key of ["SOPR", "WHALE_FLOW", "BTC_DOMINANCE", "LIQ_CASCADE_RISK"] as const) {
      expect(byKey.get(key)).toMatchObject({ status: "DEAD", value: null, last_updated: null });
    }
    expect(["CLEAR", "WATCH", "WARNING", "BLACKOUT"]).toContain(body.macro_calendar.status);
    expect(body.cached).toBe(false);
    expect(body.cache_ttl_seconds).toBe(30);
  });

  it("answers the snapshot from cache within its 30 s TTL, for higher tiers too", async () => {
    const res = await get("/v1/signals/latest", keys.pro);
    expect(res.status).toBe(200);
    const body = signalsSnapshotSchema.parse(await res.json());
    expect(body.cached).toBe(true);
    expect(body.cache_ttl_seconds).toBeGreaterThan(0);
    expect(body.cache_ttl_seconds).toBeLessThanOrEqual(30);
    expect(res.headers.get("cache-control")).toBe(`private, max-age=${body.cache_ttl_seconds}`);
  });

  it("serves the macro correlation to Basic: 5 live series, scores and alerts", async () => {
    const res = await get("/v1/macro/correlation", keys.basic);
    expect(res.status).toBe(200);
    const body = macroCorrelationSchema.parse(await res.json());
    expect(body.signals.map((s) => s.key)).toEqual(["US10Y", "DXY", "GOLD", "NASDAQ", "BTC_NASDAQ_CORR"]);
    for (const s of body.signals) {
      expect(s.status, s.key).toBe("LIVE");
      expect(Number.isFinite(s.value), s.key).toBe(true);
    }
    for (const s of body.signals.slice(0, 4)) {
      expect(Number.isFinite(s.change_24h_pct), s.key).toBe(true);
      expect(Number.isFinite(s.correlation_30d), s.key).toBe(true);
      // Published at 4 decimals (they read like 3.294117647058825).
      for (const x of [s.change_24h_pct, s.correlation_30d]) expect(Number((x as number).toFixed(4)), s.key).toBe(x);
    }
    expect(Number((body.signals[4]?.value as number).toFixed(4))).toBe(body.signals[4]?.value);
    expect(body.signals[4]).toMatchObject({ change_24h_pct: null, correlation_30d: null });
    expect(body.assessment).toBe(body.risk_off_score >= 60 ? "RISK_OFF" : body.risk_off_score <= 40 ? "RISK_ON" : "NEUTRAL");
    for (const a of body.alerts) expect(a.alert === "RISK_OFF" ? a.risk_off_score : a.fed_hawkishness).toBeGreaterThanOrEqual(70);
    expect(body.cache_ttl_seconds).toBe(300);
  });

  it("serves candles to any key: closed bars, oldest first, epoch seconds", async () => {
    const res = await get("/v1/market/candles?asset=BTC&interval=1h&limit=24", keys.free);
    expect(res.status).toBe(200);
    const body = candlesResponseSchema.parse(await res.json());
    expect(body).toMatchObject({ asset: "BTC", interval: "1h", cached: false, cache_ttl_seconds: 60 });
    expect(body.candles).toHaveLength(24);
    const ts = body.candles.map((c) => c.t);
    for (let i = 1; i < ts.length; i++) expect((ts[i] as number) - (ts[i - 1] as number)).toBe(3600);
    const last = body.candles.at(-1);
    // A bar is served only once closed (no look-ahead): open + 1 h is not after the market clock.
    expect(((last?.t ?? 0) + 3600) * 1000).toBeLessThanOrEqual(svc.service.deps.marketClock.now());
    expect(((last?.t ?? 0) + 3600) * 1000).toBeGreaterThan(start - 2 * 3_600_000);
    for (const c of body.candles) {
      expect(c.l).toBeLessThanOrEqual(Math.min(c.o, c.c));
      expect(c.h).toBeGreaterThanOrEqual(Math.max(c.o, c.c));
      expect(c.v).toBeGreaterThan(0);
    }
  });

  it("serves every asset and interval, with the documented defaults", async () => {
    for (const [asset, interval, step] of [["ETH", "4h", 14_400], ["SOL", "1d", 86_400], ["TAO", "1h", 3600]] as const) {
      const body = candlesResponseSchema.parse(await (await get(`/v1/market/candles?asset=${asset}&interval=${interval}&limit=3`, keys.free)).json());
      expect(body.candles, `${asset} ${interval}`).toHaveLength(3);
      expect((body.candles[2]?.t ?? 0) - (body.candles[1]?.t ?? 0)).toBe(step);
    }
    const dflt = candlesResponseSchema.parse(await (await get("/v1/market/candles?asset=BTC", keys.free)).json());
    expect(dflt.interval).toBe("1h");
    expect(dflt.candles).toHaveLength(100);
  });

  it("refuses a lower tier with 403 tier_required and a missing key with 401", async () => {
    for (const path of ["/v1/signals/latest", "/v1/macro/correlation"]) {
      const res = await get(path, keys.free);
      expect(res.status, path).toBe(403);
      expect(((await res.json()) as Detail).detail).toMatchObject({ error: "tier_required", required_tier: "basic" });
    }
    for (const path of ["/v1/signals/latest", "/v1/macro/correlation", "/v1/market/candles?asset=BTC"]) {
      const res = await get(path);
      expect(res.status, path).toBe(401);
      expect(((await res.json()) as Detail).detail.error).toBe("missing_api_key");
    }
  });

  it("answers 422 with the location of each bad candles parameter", async () => {
    const cases: [string, string][] = [
      ["", "asset"],
      ["asset=DOGE", "asset"],
      ["asset=btc", "asset"],
      ["asset=BTC&interval=5m", "interval"],
      ["asset=BTC&limit=0", "limit"],
      ["asset=BTC&limit=1001", "limit"],
      ["asset=BTC&limit=ten", "limit"],
      ["asset=BTC&limit=2.5", "limit"],
    ];
    for (const [qs, field] of cases) {
      const res = await get(`/v1/market/candles?${qs}`, keys.free);
      expect(res.status, qs).toBe(422);
      const body = validationErrorSchema.parse(await res.json());
      expect(body.detail.map((d) => d.loc), qs).toContainEqual(["query", field]);
    }
  });

  it("documents the routes in OpenAPI and no longer answers not_ready", async () => {
    const doc = (await (await fetch(`${svc.url}/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
      components: { schemas: Record<string, { properties?: Record<string, { description?: string }> }> };
    };
    for (const path of ["/v1/signals/latest", "/v1/signals/history", "/v1/macro/correlation", "/v1/market/candles"]) {
      expect(doc.paths[path]?.get?.tags, path).not.toContain("pending");
    }
    // Two macro assessments with one vocabulary measure different things (levels, day-over-day
    // moves) and can disagree at the same instant: each says which it is, and points to the other.
    const levels = doc.components.schemas.MacroContext?.properties?.assessment?.description ?? "";
    const moves = doc.components.schemas.MacroCorrelation?.properties?.assessment?.description ?? "";
    expect(levels).toMatch(/levels/);
    expect(levels).toMatch(/\/v1\/macro\/correlation/);
    expect(moves).toMatch(/day-over-day moves/);
    expect(moves).toMatch(/macro_context/);
  });
});
