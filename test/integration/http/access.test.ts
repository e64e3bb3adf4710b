import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, freshStoreUrl, startService, type RunningService, type StoreKind } from "../../support/service.js";
import { probeRoutes } from "../../support/probe-routes.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";

interface Detail {
  detail: Record<string, unknown> & { error: string; message: string };
}

const DAY_START = Date.UTC(2026, 10, 22, 0, 0, 0);

describe.each<StoreKind>(["sqlite", "mongodb"])("authentication, tiers and limits on %s", (kind) => {
  let svc: RunningService;
  const clock = new ManualClock(DAY_START + 10 * 3600_000);
  const probe = { computed: 0 };
  const get = (path: string, key?: string, init: RequestInit = {}) =>
    fetch(`${svc.url}${path}`, { ...init, headers: { ...(key ? { "x-api-key": key } : {}), ...(init.headers ?? {}) } });

  beforeAll(async () => {
    svc = await startService(
      {
        STORE_URL: freshStoreUrl(kind, "access"),
        QUOTA_FREE_PER_DAY: "4",
        RATE_LIMIT_FREE_PER_MINUTE: "1000",
        RATE_LIMIT_BASIC_PER_MINUTE: "3",
      },
      { wallClock: clock, routeSets: [probeRoutes(probe)] },
    );
  });
  afterAll(() => svc.stop());

  it("refuses a request without a key: 401 missing_api_key", async () => {
    const res = await get("/v1/verdict/latest");
    expect(res.status).toBe(401);
    const body = (await res.json()) as Detail;
    expect(body.detail.error).toBe("missing_api_key");
    expect(body.detail.message.length).toBeGreaterThan(0);
  });

  it("refuses an unknown or malformed key: 401 invalid_api_key", async () => {
    for (const key of ["svc_free_AAAAAAAAAAAAAAAAAAAA", "not-a-key", "svc_pro_short", "x".repeat(5000)]) {
      const res = await get("/v1/verdict/latest", key);
      expect(res.status).toBe(401);
      expect(((await res.json()) as Detail).detail.error).toBe("invalid_api_key");
    }
  });

  it("refuses a lower tier with 403 tier_required naming both tiers and where to upgrade", async () => {
    const free = await createKey(svc, "free");
    const res = await get("/v1/signals/latest", free);
    expect(res.status).toBe(403);
    const { detail } = (await res.json()) as Detail;
    expect(detail).toMatchObject({ error: "tier_required", required_tier: "basic", current_tier: "free" });
    expect(String(detail.upgrade_url)).toMatch(/^https?:\/\//);
    const pro = await get("/v1/council/latest", await createKey(svc, "basic"));
    expect(((await pro.json()) as Detail).detail).toMatchObject({ required_tier: "pro", current_tier: "basic" });
  });

  it("a 403 carries the X-RateLimit headers of the quota as it stands, and counts nothing", async () => {
    const free = await createKey(svc, "free");
    expect((await get("/v1/probe/cached", free)).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const refused = await get("/v1/signals/latest", free);
      expect(refused.status).toBe(403);
      expect(refused.headers.get("x-ratelimit-limit")).toBe("4");
      expect(refused.headers.get("x-ratelimit-remaining")).toBe("3");
      expect(refused.headers.get("x-ratelimit-reset")).toBe(String((DAY_START + 86_400_000) / 1000));
    }
    // Three refusals later the next counted call still finds 3 left before it.
    expect((await get("/v1/probe/cached", free)).headers.get("x-ratelimit-remaining")).toBe("2");
  });

  it("lets a higher tier call lower-tier endpoints", async () => {
    const pro = await createKey(svc, "pro");
    // Free, Basic and Pro routes: access control lets the Pro key through; what the route then
    // answers (data, 422 for a missing query, 503 while warming up) is its own business.
    for (const path of ["/v1/verdict/latest", "/v1/signals/latest", "/v1/signals/history"]) {
      const res = await get(path, pro);
      expect([200, 422, 503], path).toContain(res.status);
      if (res.status !== 200) expect(((await res.json()) as Detail).detail, path).not.toMatchObject({ error: expect.stringMatching(/key|tier|limit/) });
    }
  });

  it("counts the daily quota with X-RateLimit headers, refuses the next call with daily_limit_exceeded, and resets at 00:00 UTC", async () => {
    const key = await createKey(svc, "free");
    const nextMidnight = DAY_START + 86_400_000;
    for (let i = 1; i <= 4; i++) {
      const res = await get("/v1/probe/cached", key);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("4");
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(4 - i));
      expect(res.headers.get("x-ratelimit-reset")).toBe(String(nextMidnight / 1000));
    }
    const over = await get("/v1/probe/cached", key);
    expect(over.status).toBe(429);
    const { detail } = (await over.json()) as Detail;
    expect(detail).toMatchObject({ error: "daily_limit_exceeded", calls_today: 4, limit: 4, reset_at: "2026-11-23T00:00:00.000Z" });
    expect(String(detail.upgrade_url)).toMatch(/^https?:\/\//);
    // Refused calls do not count: still 4 after several more attempts.
    await get("/v1/probe/cached", key);
    const again = (await (await get("/v1/probe/cached", key)).json()) as Detail;
    expect(again.detail.calls_today).toBe(4);

    clock.set(nextMidnight + 1_000);
    const fresh = await get("/v1/probe/cached", key);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("x-ratelimit-remaining")).toBe("3");
  });

  it("does not count requests refused 401 or 403", async () => {
    const key = await createKey(svc, "free");
    for (let i = 0; i < 6; i++) expect((await get("/v1/signals/latest", key)).status).toBe(403);
    const res = await get("/v1/probe/cached", key);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("3");
  });

  it("enforces the per-minute limit with 429 rate_limit_exceeded, Retry-After, and no counting of refusals", async () => {
    clock.set(DAY_START + 2 * 86_400_000);
    const key = await createKey(svc, "basic");
    for (let i = 0; i < 3; i++) expect((await get("/v1/probe/cached", key)).status).toBe(200);
    const over = await get("/v1/probe/cached", key);
    expect(over.status).toBe(429);
    const { detail } = (await over.json()) as Detail;
    expect(detail).toMatchObject({ error: "rate_limit_exceeded", limit: 3, window_seconds: 60 });
    expect(Number(detail.retry_after_seconds)).toBeGreaterThan(0);
    expect(Number(detail.retry_after_seconds)).toBeLessThanOrEqual(60);
    expect(over.headers.get("retry-after")).toBe(String(detail.retry_after_seconds));
    clock.advance(60_000);
    const next = await get("/v1/probe/cached", key);
    expect(next.status).toBe(200);
    // 4 successes counted toward the daily 1,000; the refused one did not count.
    expect(next.headers.get("x-ratelimit-remaining")).toBe("996");
  });

  it("serves a cached body with cached/cache_ttl_seconds and Cache-Control, and still counts the call", async () => {
    // Later than every earlier test, so no entry they cached is still fresh.
    clock.set(DAY_START + 3 * 86_400_000);
    const key = await createKey(svc, "pro");
    const first = await get("/v1/probe/cached", key);
    const a = (await first.json()) as { computed: number; cached: boolean; cache_ttl_seconds: number };
    expect(a.cached).toBe(false);
    expect(a.cache_ttl_seconds).toBe(30);
    expect(first.headers.get("cache-control")).toBe("private, max-age=30");
    // A browser keeps the answer per key: another key, or a revoked one, is asked afresh.
    expect(first.headers.get("vary")).toBe("X-API-Key");
    clock.advance(12_000);
    const second = await get("/v1/probe/cached", key);
    const b = (await second.json()) as typeof a;
    expect(b).toEqual({ computed: a.computed, cached: true, cache_ttl_seconds: 18 });
    expect(second.headers.get("cache-control")).toBe("private, max-age=18");
    expect(second.headers.get("x-ratelimit-remaining")).toBe("9998");
    clock.advance(19_000);
    const third = (await (await get("/v1/probe/cached", key)).json()) as typeof a;
    expect(third.cached).toBe(false);
    expect(third.computed).toBeGreaterThan(a.computed);
  });

  it("tells caches to keep no uncached answer: a caller's webhooks, a new key, a refusal, a 404", async () => {
    const key = await createKey(svc, "basic");
    const answers = [
      await get("/v1/webhooks", key),
      await get("/v1/keys/generate", undefined, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "cache probe", email: "probe@example.com" }) }),
      await get("/v1/verdict/latest"),
      await get("/v1/no-such-route", key),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 201, 401, 404]);
    expect(answers.map((r) => r.headers.get("cache-control"))).toEqual(["no-store", "no-store", "no-store", "no-store"]);
  });

  it("limits POST /v1/tao/council/run to 5 per minute per key", async () => {
    clock.set(DAY_START + 4 * 86_400_000);
    const key = await createKey(svc, "pro");
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await get("/v1/tao/council/run", key, { method: "POST" })).status);
    expect(statuses.slice(0, 5).every((s) => s !== 429)).toBe(true);
    expect(statuses[5]).toBe(429);
    clock.advance(61_000);
    expect((await get("/v1/tao/council/run", key, { method: "POST" })).status).not.toBe(429);
  });

  it("carries the daily quota and the per-minute window over a rotation: rotating is no way round them", async () => {
    clock.set(DAY_START + 5 * 86_400_000);
    const free = await createKey(svc, "free");
    for (let i = 0; i < 2; i++) expect((await get("/v1/probe/cached", free)).status).toBe(200);
    const rotated = await fetch(`${svc.url}/v1/keys/rotate`, { method: "POST", headers: { "x-api-key": free } });
    expect(rotated.status).toBe(201);
    expect(rotated.headers.get("x-ratelimit-remaining")).toBe("1");
    const successor = ((await rotated.json()) as { api_key: string }).api_key;
    const last = await get("/v1/probe/cached", successor);
    expect(last.status).toBe(200);
    expect(last.headers.get("x-ratelimit-remaining")).toBe("0");
    const over = await get("/v1/probe/cached", successor);
    expect(over.status).toBe(429);
    expect(((await over.json()) as Detail).detail).toMatchObject({ error: "daily_limit_exceeded", calls_today: 4 });
    // Another caller's key keeps its own quota.
    expect((await get("/v1/probe/cached", await createKey(svc, "free"))).headers.get("x-ratelimit-remaining")).toBe("3");

    const basic = await createKey(svc, "basic");
    for (let i = 0; i < 2; i++) expect((await get("/v1/probe/cached", basic)).status).toBe(200);
    const next = ((await (await fetch(`${svc.url}/v1/keys/rotate`, { method: "POST", headers: { "x-api-key": basic } })).json()) as { api_key: string }).api_key;
    const limited = await get("/v1/probe/cached", next);
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as Detail).detail).toMatchObject({ error: "rate_limit_exceeded", limit: 3, window_seconds: 60 });
  });

  it("lets the public endpoints through without a key", async () => {
    for (const path of ["/v1/tao/status", "/v1/ghost/stats", "/v1/eth/track-record"]) {
      const res = await get(path);
      // Data, or "warming up" before the first turn: never a demand for a key.
      expect([200, 503], path).toContain(res.status);
      if (res.status === 503) expect(((await res.json()) as Detail).detail, path).toMatchObject({ error: "warming_up" });
    }
  });
  it("GET /v1/keys/current shows the key's tier and today's count, still after the quota is spent, never the e-mail", async () => {
    const day = DAY_START + 5 * 86_400_000;
    clock.set(day + 9 * 3600_000 + 5_000);
    const issued = await svc.service.deps.keyIssuer.create("free", "desk", "owner@example.com");
    const current = async (key: string) => {
      const res = await get("/v1/keys/current", key);
      return { res, text: await res.text() };
    };
    const first = await current(issued.apiKey);
    expect(first.res.status).toBe(200);
    expect(JSON.parse(first.text)).toEqual({
      key_prefix: issued.record.prefix,
      tier: "free",
      name: "desk",
      created_at: issued.record.createdAt,
      daily_limit: 4,
      calls_today: 1,
      remaining_today: 3,
      resets_at: new Date(day + 86_400_000).toISOString(),
      per_minute_limit: 1000,
    });
    expect(issued.apiKey.startsWith(issued.record.prefix)).toBe(true);
    expect(first.text).not.toContain("owner@example.com");
    expect(first.text).not.toContain(issued.apiKey);
    expect(first.res.headers.get("x-ratelimit-remaining")).toBe("3");

    for (let i = 0; i < 3; i++) expect((await get("/v1/verdict/latest", issued.apiKey)).status).not.toBe(429);
    expect((await get("/v1/verdict/latest", issued.apiKey)).status).toBe(429);
    const spent = await current(issued.apiKey);
    expect(spent.res.status).toBe(200);
    expect(JSON.parse(spent.text)).toMatchObject({ calls_today: 4, remaining_today: 0 });

    // A rotation hands no fresh quota: the new key reads the lineage's count.
    const rotated = (await (await fetch(`${svc.url}/v1/keys/rotate`, { method: "POST", headers: { "x-api-key": issued.apiKey } })).json()) as { api_key: string };
    expect(JSON.parse((await current(rotated.api_key)).text)).toMatchObject({ tier: "free", name: "desk", calls_today: 4, remaining_today: 0 });
    expect((await current(issued.apiKey)).res.status).toBe(401);

    // Bounded on its own, as the quota does not refuse it: 30 a minute.
    clock.set(day + 10 * 3600_000);
    for (let i = 0; i < 30; i++) expect((await current(rotated.api_key)).res.status).toBe(200);
    const refused = await current(rotated.api_key);
    expect(refused.res.status).toBe(429);
    expect((JSON.parse(refused.text) as Detail).detail).toMatchObject({ error: "rate_limit_exceeded", limit: 30, window_seconds: 60 });
  });
});

describe.each<StoreKind>(["sqlite", "mongodb"])("key generation, rotation and deactivation on %s", (kind) => {
  let svc: RunningService;
  const clock = new ManualClock(DAY_START + 8 * 3600_000);
  beforeAll(async () => {
    svc = await startService({ STORE_URL: freshStoreUrl(kind, "keys") }, { wallClock: clock });
  });
  afterAll(() => svc.stop());

  const generate = (body: unknown) =>
    fetch(`${svc.url}/v1/keys/generate`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  it("generates a Free key shown once, stored only as a hash", async () => {
    const res = await generate({ name: "Ada", email: "ada@example.com" });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ tier: "free", daily_limit: 100, name: "Ada", email: "ada@example.com" });
    const apiKey = String(body.api_key);
    expect(apiKey).toMatch(/^svc_free_[A-Za-z0-9]{20}$/);
    expect(apiKey.startsWith(String(body.key_prefix))).toBe(true);
    expect(String(body.key_prefix).length).toBeLessThan(apiKey.length);
    expect(Date.parse(String(body.created_at))).toBe(clock.now());
    const listed = await svc.service.store.apiKeys.list();
    expect(JSON.stringify(listed)).not.toContain(apiKey);
    const ok = await fetch(`${svc.url}/v1/probe-none`, { headers: { "x-api-key": apiKey } });
    expect(ok.status).toBe(404);
    const verdict = await fetch(`${svc.url}/v1/verdict/latest`, { headers: { "x-api-key": apiKey } });
    expect([401, 403]).not.toContain(verdict.status);
  });

  it("requires both fields within their lengths and a valid e-mail", async () => {
    const cases: unknown[] = [{ name: "A" }, { email: "a@b.co" }, { name: "", email: "a@b.co" }, { name: "x".repeat(101), email: "a@b.co" }, { name: "A", email: "nope" }, { name: "A", email: `${"a".repeat(250)}@b.co` }, { name: 5, email: "a@b.co" }];
    for (const body of cases) {
      const res = await generate(body);
      expect(res.status).toBe(422);
      const { detail } = (await res.json()) as { detail: { loc: unknown[] }[] };
      expect(detail[0]?.loc[0]).toBe("body");
    }
  });

  it("issues a key for an address with a tilde or a punycode top-level domain", async () => {
    clock.set(DAY_START + 14 * 3600_000); // an hour window of its own, apart from the rate-limit tests
    for (const email of ["first~last@example.com", "x@example.xn--p1ai"]) {
      const res = await generate({ name: "Valid", email });
      expect(res.status).toBe(201);
      expect(((await res.json()) as { email: string }).email).toBe(email);
    }
  });

  it("allows 5 generations per client IP per hour, then 429 rate_limit_exceeded with window 3600", async () => {
    clock.set(DAY_START + 20 * 3600_000);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await generate({ name: `n${i}`, email: `n${i}@example.com` })).status);
    // The first generation test above happened in another hour window.
    expect(statuses.slice(0, 5)).toEqual([201, 201, 201, 201, 201]);
    expect(statuses[5]).toBe(429);
    const res = await generate({ name: "late", email: "late@example.com" });
    const { detail } = (await res.json()) as Detail;
    expect(detail).toMatchObject({ error: "rate_limit_exceeded", limit: 5, window_seconds: 3600 });
    expect(res.headers.get("retry-after")).toBe(String(detail.retry_after_seconds));
    clock.advance(3600_000);
    expect((await generate({ name: "next", email: "next@example.com" })).status).toBe(201);
  });

  it("counts the five generations in any 60 minutes, not per clock hour", async () => {
    const hourEnd = DAY_START + 40 * 3600_000;
    clock.set(hourEnd - 60_000);
    for (let i = 0; i < 5; i++) expect((await generate({ name: `s${i}`, email: `s${i}@example.com` })).status).toBe(201);
    clock.set(hourEnd + 60_000);
    const res = await generate({ name: "s5", email: "s5@example.com" });
    expect(res.status).toBe(429);
    const { detail } = (await res.json()) as Detail;
    // Free again when the first of the five is an hour old: 58 minutes from now.
    expect(detail).toMatchObject({ error: "rate_limit_exceeded", limit: 5, window_seconds: 3600, retry_after_seconds: 58 * 60 });
    clock.set(hourEnd - 60_000 + 3600_000 + 1);
    expect((await generate({ name: "s6", email: "s6@example.com" })).status).toBe(201);
  });

  it("rotates a key: a new key of the same tier, the old one key_inactive at once", async () => {
    const old = await createKey(svc, "basic");
    const res = await fetch(`${svc.url}/v1/keys/rotate`, { method: "POST", headers: { "x-api-key": old } });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { api_key: string; tier: string; daily_limit: number };
    expect(body.tier).toBe("basic");
    expect(body.daily_limit).toBe(1000);
    expect(body.api_key).toMatch(/^svc_basic_[A-Za-z0-9]{20}$/);
    const oldRes = await fetch(`${svc.url}/v1/signals/latest`, { headers: { "x-api-key": old } });
    expect(oldRes.status).toBe(401);
    expect(((await oldRes.json()) as Detail).detail.error).toBe("key_inactive");
    const newRes = await fetch(`${svc.url}/v1/signals/latest`, { headers: { "x-api-key": body.api_key } });
    expect([401, 403]).not.toContain(newRes.status);
  });

  it("deactivates the calling key with DELETE /v1/keys/current", async () => {
    const key = await createKey(svc, "free");
    const res = await fetch(`${svc.url}/v1/keys/current`, { method: "DELETE", headers: { "x-api-key": key } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deactivated: true });
    const after = await fetch(`${svc.url}/v1/keys/current`, { method: "DELETE", headers: { "x-api-key": key } });
    expect(after.status).toBe(401);
    expect(((await after.json()) as Detail).detail.error).toBe("key_inactive");
  });

});
