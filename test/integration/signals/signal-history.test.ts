import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, freshStoreUrl, startService, type RunningService, type StoreKind } from "../../support/service.js";
import { signalHistoryPageSchema } from "../../../src/http/schemas/signals.js";
import { validationErrorSchema } from "../../../src/http/schemas/common.js";
import { DEFAULT_BACKFILL_MS, SignalRecorder } from "../../../src/application/signal-recorder.js";
import { sharedReplayFeed } from "../../support/replay-feed.js";
import { ManualClock } from "../../../src/runtime/clocks/clock.js";

const H = 3_600_000;

/** GET /v1/signals/history serves what the SignalRecorder wrote, on both stores. */
describe.each<StoreKind>(["sqlite", "mongodb"])("signal history endpoint on %s", (kind) => {
  let svc: RunningService;
  let pro: string;
  const get = (path: string, key = pro) => fetch(`${svc.url}${path}`, { headers: { "x-api-key": key } });
  const page = async (qs: string) => {
    const res = await get(`/v1/signals/history?${qs}`);
    expect(res.status, qs).toBe(200);
    return signalHistoryPageSchema.parse(await res.json());
  };

  beforeAll(async () => {
    svc = await startService({ STORE_URL: freshStoreUrl(kind, "sighistory") });
    pro = await createKey(svc, "pro");
  });
  afterAll(() => svc.stop());

  it("serves BTC_RSI by default: the recorder's warm-up backfill, newest first, real values", async () => {
    const body = await page("");
    expect(body).toMatchObject({ page: 1, per_page: 100, cached: false, cache_ttl_seconds: 300 });
    // 7 days of hourly RSI readings recorded at start.
    expect(body.total).toBeGreaterThanOrEqual(DEFAULT_BACKFILL_MS / H);
    expect(body.items).toHaveLength(100);
    const now = svc.service.deps.marketClock.now();
    const times = body.items.map((i) => Date.parse(i.recorded_at));
    for (let i = 1; i < times.length; i++) expect(times[i - 1]).toBeGreaterThan(times[i] as number);
    expect(times[0]).toBeLessThanOrEqual(now);
    for (const item of body.items) {
      expect(item).toMatchObject({ signal_key: "BTC_RSI", display_name: expect.any(String) });
      expect(item.value).toBeGreaterThan(0);
      expect(item.value).toBeLessThan(100);
    }
  });

  it("returns exactly what the store holds, which is exactly what the feed observed", async () => {
    const body = await page("signal_key=FEAR_GREED_INDEX&per_page=500");
    expect(body.total).toBeGreaterThanOrEqual(7);
    const stored = await svc.service.store.signalHistory.page({ signalKey: "FEAR_GREED_INDEX", asOf: Date.parse(body.items[0]?.recorded_at ?? ""), page: 1, perPage: 500 });
    expect(body.items.map((i) => [Date.parse(i.recorded_at), i.value])).toEqual(stored.items.map((p) => [p.recordedAt, p.value]));
    const feed = await sharedReplayFeed();
    const oldest = Date.parse(body.items.at(-1)?.recorded_at ?? "");
    const newest = Date.parse(body.items[0]?.recorded_at ?? "");
    const observed = feed.readingsBetween("FEAR_GREED_INDEX", oldest, newest);
    expect(observed.map((r) => [r.observedAt, r.value]).reverse()).toEqual(body.items.map((i) => [Date.parse(i.recorded_at), i.value]));
  });

  it("pages: per_page 1 and 500, the last partial page, and a page past the end with the true total", async () => {
    const first = await page("signal_key=BTC_RSI&per_page=1");
    expect(first.items).toHaveLength(1);
    const total = first.total;
    const big = await page("signal_key=BTC_RSI&per_page=500");
    expect(big.items).toHaveLength(Math.min(500, big.total));
    const perPage = 50;
    const lastPage = Math.ceil(total / perPage);
    const last = await page(`signal_key=BTC_RSI&per_page=${perPage}&page=${lastPage}`);
    expect(last.items.length).toBeGreaterThan(0);
    expect(last.items.length).toBeLessThanOrEqual(perPage);
    const past = await page(`signal_key=BTC_RSI&per_page=${perPage}&page=${lastPage + 1}`);
    expect(past).toMatchObject({ items: [], page: lastPage + 1, per_page: perPage });
    expect(past.total).toBeGreaterThanOrEqual(total);
    for (const farPage of [100_000, 1_000_001, Number.MAX_SAFE_INTEGER]) {
      const far = await page(`signal_key=BTC_RSI&page=${farPage}&per_page=500`);
      expect(far).toMatchObject({ items: [], page: farPage, per_page: 500 });
      expect(far.total).toBeGreaterThanOrEqual(total);
    }
  });

  it("answers 200 with an empty page for a signal with no real replay source (DEAD: nothing recorded)", async () => {
    const body = await page("signal_key=SOPR");
    expect(body).toMatchObject({ items: [], total: 0, page: 1 });
  });

  it("caches each query for 300 s", async () => {
    await page("signal_key=DXY&per_page=7");
    const again = await page("signal_key=DXY&per_page=7");
    expect(again.cached).toBe(true);
    expect(again.cache_ttl_seconds).toBeGreaterThan(0);
    expect(again.cache_ttl_seconds).toBeLessThanOrEqual(300);
  });

  it("answers 422 for an unknown key and out-of-range paging", async () => {
    const cases: [string, string][] = [
      ["signal_key=NOPE", "signal_key"],
      ["signal_key=btc_rsi", "signal_key"],
      ["page=0", "page"],
      ["page=-1", "page"],
      ["page=abc", "page"],
      ["per_page=0", "per_page"],
      ["per_page=501", "per_page"],
      ["per_page=1.5", "per_page"],
    ];
    for (const [qs, field] of cases) {
      const res = await get(`/v1/signals/history?${qs}`);
      expect(res.status, qs).toBe(422);
      const body = validationErrorSchema.parse(await res.json());
      expect(body.detail.map((d) => d.loc), qs).toContainEqual(["query", field]);
    }
  });

  it("is Pro only: Basic gets 403 tier_required, no key 401", async () => {
    const basic = await get("/v1/signals/history", await createKey(svc, "basic"));
    expect(basic.status).toBe(403);
    expect(((await basic.json()) as { detail: { error: string; required_tier: string } }).detail).toMatchObject({
      error: "tier_required",
      required_tier: "pro",
    });
    expect((await fetch(`${svc.url}/v1/signals/history`)).status).toBe(401);
  });
});

/** The history endpoint follows market time: a wall clock moved by hand drives the replay clock (60x). */
describe.each<StoreKind>(["sqlite", "mongodb"])("signal history as market time moves on %s", (kind) => {
  let svc: RunningService;
  let pro: string;
  const wall = new ManualClock(Date.UTC(2026, 10, 22, 12));
  const page = async (qs: string) => {
    const res = await fetch(`${svc.url}/v1/signals/history?${qs}`, { headers: { "x-api-key": pro } });
    expect(res.status, qs).toBe(200);
    return signalHistoryPageSchema.parse(await res.json());
  };

  beforeAll(async () => {
    svc = await startService({ STORE_URL: freshStoreUrl(kind, "sighistclock") }, { wallClock: wall });
    pro = await createKey(svc, "pro");
  });
  afterAll(() => svc.stop());

  it("serves new hourly points once the recorder has written them, and never a point after market time", async () => {
    const recorder = new SignalRecorder(await sharedReplayFeed(), svc.service.store.signalHistory);
    const before = await page("per_page=1");
    // 6 wall minutes = 6 market hours at REPLAY_SPEED 60, and past the 300 s cache entry.
    wall.advance(6 * 60_000);
    const now = svc.service.deps.marketClock.now();
    // The recorder writes ahead of the clock here on purpose: the endpoint must still hide it.
    await recorder.recordUpTo(now + 48 * H);
    const after = await page("per_page=1");
    expect(after.cached).toBe(false);
    expect(after.total).toBe(before.total + 6);
    const newest = Date.parse(after.items[0]?.recorded_at ?? "");
    expect(newest).toBeLessThanOrEqual(now);
    expect(newest).toBeGreaterThan(now - H);
    expect(await svc.service.store.signalHistory.latestRecordedAt("BTC_RSI")).toBeGreaterThan(now + 40 * H);
  });
});
