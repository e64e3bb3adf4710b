import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, freshStoreUrl, startService, type RunningService, type StoreKind } from "../../support/service.js";
import { regimeEvaluationSchema, verdictEvaluationSchema } from "../../../src/http/schemas/evaluation.js";
import { btcVerdictSchema } from "../../../src/http/schemas/judiciary.js";
import { REGIME_EVALUATION_KEY, agentCalibrationKey, agentMapsSchema, calibrationKey, storedMap } from "../../../src/actors/evidence-actor.js";
import { btcCouncilSessionSchema } from "../../../src/http/schemas/council.js";
import { ROSTERS } from "../../../src/domain/council/rosters.js";
import { calibratedConfidence } from "../../../src/domain/calibration/calibration-map.js";
import { refitTime } from "../../../src/domain/calibration/walk-forward-calibrator.js";
import { waitFor } from "../../support/wait-for.js";

const HOUR = 3_600_000;

const call = (svc: RunningService, path: string, key: string) => fetch(`${svc.url}${path}`, { headers: { "x-api-key": key } });

/**
 * Issue 16 over HTTP: after a 2-day warm-up the evaluation routes serve what the EvidenceActors
 * computed on the service clock, and every published verdict's confidence is the stored map's
 * probability for its ruling — on SQLite and on MongoDB (FerretDB) alike.
 */
describe.each<StoreKind>(["sqlite", "mongodb"])("evidence on %s", (kind) => {
  let svc: RunningService;
  let basic: string;
  let free: string;
  let pro: string;
  /** The market time and the stored regime evaluation's time when the service turned ready. */
  let atReady: { market: number; evaluatedAt: number | null };

  beforeAll(async () => {
    // FerretDB writes a warm-up's signal history ~40x slower than SQLite (two market days took
    // over 6 minutes here), so on MongoDB the service starts without warm-up and the test waits
    // for the EvidenceActors' first run at the first hourly close (a market hour = 60 s at speed 60).
    svc = await startService({ STORE_URL: freshStoreUrl(kind, "evidence"), REPLAY_WARMUP_DAYS: kind === "sqlite" ? "2" : "0" });
    atReady = { market: svc.service.deps.marketClock.now(), evaluatedAt: (await svc.service.store.evidence.get(REGIME_EVALUATION_KEY))?.at ?? null };
    basic = await createKey(svc, "basic");
    free = await createKey(svc, "free");
    pro = await createKey(svc, "pro");
    // The first evaluation at or after the hour the replay clock started running, read from the
    // store (the route caches for 300 s). The actor evaluates at most once a market week while
    // the warm-up fast-forwards and again in its last hour, then every 6 market hours: without a
    // warm-up the first is at the start hour itself, after two warm-up days it is the warm-up's.
    const runFrom = Math.floor(svc.service.deps.marketClock.now() / HOUR) * HOUR;
    await waitFor(async () => ((await svc.service.store.evidence.get(REGIME_EVALUATION_KEY))?.at ?? 0) >= runFrom, 150_000, "the first evaluation after the warm-up");
  }, 300_000);
  afterAll(() => svc?.stop());

  it("GET /v1/evaluation/verdicts: per-ruling outcomes, rank IC and a reliability table of the held-out span", async () => {
    expect((await call(svc, "/v1/evaluation/verdicts?asset=ETH", free)).status).toBe(403);
    const res = await call(svc, "/v1/evaluation/verdicts?asset=ETH", basic);
    expect(res.status).toBe(200);
    const body = verdictEvaluationSchema.parse(await res.json());
    expect(body.asset).toBe("ETH");
    expect(body.horizon_hours).toBe(24);
    const span = body.spans[0];
    expect(span?.span).toBe("from_2023");
    expect(span?.from).toBe("2023-01-01T00:00:00.000Z");
    // More than three years of hourly rulings, each graded where its horizon has ended.
    expect(span?.hours).toBeGreaterThan(24 * 365 * 3);
    expect(span?.reliability.calls).toBeGreaterThan(200);
    expect(span?.rank_ic.map((x) => x.hours)).toEqual([4, 24, 72]);
    expect(span?.rank_ic_by_year.map((y) => y.year)).toContain(2024);
    const counted = span?.rulings.reduce((s, r) => s + r.count, 0);
    expect(counted).toBe(span?.hours);
    // Calibrated: the quintiles' confidence tracks the realised hit rate within 0.1 on ETH's held-out span.
    expect(span?.reliability.quintile_mean_abs_gap).toBeLessThan(0.1);
    // With the gap a perfectly calibrated forecaster would show on the same calls, for comparison.
    const band = span?.reliability.quintile_gap_if_calibrated;
    expect(band?.median).toBeGreaterThan(0);
    expect(band?.p95).toBeGreaterThan(band?.median ?? 1);
    expect(body.calibration.horizon_hours).toBe(24);
    expect(res.headers.get("cache-control")).toContain("max-age=");
  });

  it("GET /v1/evaluation/regime: forward volatility and return by published regime, against trailing volatility", async () => {
    const res = await call(svc, "/v1/evaluation/regime", basic);
    expect(res.status).toBe(200);
    const body = regimeEvaluationSchema.parse(await res.json());
    expect(body.regimes.reduce((s, r) => s + r.hours, 0)).toBe(body.hours);
    if (kind === "sqlite") {
      // What a caller reads when the service turns ready is the warm-up's last hour, not its
      // first (two market days old; up to a week with the default 14 warm-up days).
      expect(atReady.evaluatedAt).not.toBeNull();
      expect(atReady.market - (atReady.evaluatedAt ?? 0)).toBeLessThan(HOUR);
      // Two warm-up days of published regimes, each graded once its 24 h had passed.
      expect(body.hours).toBeGreaterThan(24);
      expect(body.returns_kruskal_wallis.samples).toBeGreaterThan(0);
      // The last day's hours are published but not graded yet: the means are over graded hours only.
      for (const r of body.regimes) expect(r.graded_hours).toBeLessThanOrEqual(r.hours);
      const pending = body.regimes.reduce((s, r) => s + r.hours - r.graded_hours, 0);
      expect(pending).toBeGreaterThan(0);
      expect(pending).toBeLessThanOrEqual(26);
      // What the regime adds comes with what a regime sequence shifted against the hours adds.
      expect(body.r2_added_by_regime).not.toBeNull();
      expect(body.r2_added_by_chance?.shifts).toBe(199);
      expect(body.r2_added_by_chance!.p_value).toBeGreaterThan(0);
      expect(body.r2_added_by_chance!.p_value).toBeLessThanOrEqual(1);
    }
    expect(body.returns_kruskal_wallis.df).toBeLessThanOrEqual(Math.max(0, body.regimes.length - 1));
  });

  it("publishes each verdict's confidence as the day's stored map gives it for the ruling", async () => {
    const res = await call(svc, "/v1/verdict/latest", free);
    expect(res.status).toBe(200);
    const body = btcVerdictSchema.parse(await res.json());
    const at = Date.parse(body.timestamp);
    const doc = await svc.service.store.evidence.get(calibrationKey({ kind: "verdict", asset: "BTC" }));
    const map = storedMap(doc?.body);
    expect(map?.fittedAt).toBe(refitTime(at));
    expect(body.confidence).toBe(calibratedConfidence(map!, body.ruling, body.score));
    // And by hand, independent of that function: no window on the bundled history shows skill, so
    // the map is the base rate alone, and a bullish ruling publishes it, a bearish one its rest.
    expect(map?.steps).toEqual([]);
    const bullish = ["STRONG_BUY", "BUY", "ACCUMULATE"].includes(body.ruling);
    const bearish = ["REDUCE", "SELL", "STRONG_SELL"].includes(body.ruling);
    const base = map!.baseRate;
    const expected = bullish ? base : bearish ? 1 - base : Math.max(base, 1 - base);
    expect(body.confidence).toBeCloseTo(expected, 4);
  });

  it("publishes each council vote's confidence as its agent's stored map gives it, beside the agent's own figure", async () => {
    const res = await call(svc, "/v1/council/latest", pro);
    expect(res.status).toBe(200);
    const body = btcCouncilSessionSchema.parse(await res.json());
    const session = await svc.service.store.councilSessions.latest("BTC", Date.parse(body.session_at));
    expect(session).not.toBeNull();
    const doc = await svc.service.store.evidence.get(agentCalibrationKey("BTC"));
    const agentMaps = agentMapsSchema.parse(doc?.body);
    expect(agentMaps.fittedAt).toBe(refitTime(session!.at));
    // One map per agent, each fitted on that agent's own graded rule votes over the trailing year.
    expect(Object.keys(agentMaps.maps).sort()).toEqual(ROSTERS.BTC.agents.map((a) => a.name).sort());
    for (const [agent, map] of Object.entries(agentMaps.maps)) {
      expect(map.stream).toBe(`agent:BTC:${agent}`);
      expect(map.outcomes).toBeGreaterThan(24 * 300);
    }
    expect(body.agents_confidence_basis.kind).toBe("per_agent");
    for (const a of body.agents) {
      const stored = session!.votes.find((v) => v.agent === a.agent);
      expect(stored?.source).toBe("rule");
      expect(a.raw_confidence).toBe(stored?.rawConfidence);
      expect(a.confidence).toBe(calibratedConfidence(agentMaps.maps[a.agent]!, a.ruling, stored!.score!));
      expect(a.confidence_basis.fitted_at).toBe(new Date(agentMaps.fittedAt).toISOString());
    }
  });

  it("answers 422 for an unknown asset", async () => {
    const res = await call(svc, "/v1/evaluation/verdicts?asset=DOGE", basic);
    expect(res.status).toBe(422);
  });
});
