import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, startService, type RunningService } from "../../support/service.js";
import { evaluationRoutes } from "../../../src/http/routes/evaluation.js";
import { REGIME_EVALUATION_KEY, verdictEvaluationKey } from "../../../src/actors/evidence-actor.js";
import type { CalibrationMap } from "../../../src/domain/calibration/calibration-map.js";

const AT = Date.UTC(2026, 0, 5);

/**
 * The evaluation routes serve what an EvidenceActor stored. A document another build wrote (a
 * field added since, as `graded_hours` was) must read as "not computed yet", not as a 500, until
 * the actor writes this build's shape.
 */
describe("evaluation routes over a stored evaluation of another shape", () => {
  let svc: RunningService;
  let key: string;

  beforeAll(async () => {
    // No actors: the documents in the store are the ones this test writes.
    svc = await startService({}, { capabilities: [], routeSets: [evaluationRoutes] });
    key = await createKey(svc, "basic");
  });
  afterAll(() => svc?.stop());

  const get = async (path: string) => {
    const res = await fetch(`${svc.url}${path}`, { headers: { "x-api-key": key } });
    return { status: res.status, body: (await res.json()) as unknown };
  };

  it("answers the regime evaluation 503 warming_up while it lacks a field this build serves", async () => {
    const row = { regime: "BULL_TRENDING", hours: 40, meanForwardReturnPct: 0.1, upShare: 0.5, meanForwardVolPct: 2 };
    const older = { evaluatedAt: AT, from: AT - 90 * 86_400_000, to: AT, hours: 40, regimes: [row], r2TrailingVol: 0.3, r2TrailingVolPlusRegime: 0.31, r2AddedByRegime: 0.01, returnsKruskalWallis: { h: 1, df: 1, pValue: 0.3, samples: 10 } };
    await svc.service.store.evidence.put({ key: REGIME_EVALUATION_KEY, at: AT, body: older });
    const res = await get("/v1/evaluation/regime");
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ detail: { error: "warming_up" } });

    // With `gradedHours` but still without the chance reference added after it: not served either.
    const withGraded = { ...older, regimes: [{ ...row, gradedHours: 38 }] };
    await svc.service.store.evidence.put({ key: REGIME_EVALUATION_KEY, at: AT + 1, body: withGraded });
    const between = await get("/v1/evaluation/regime");
    expect(between.status).toBe(503);
    expect(between.body).toMatchObject({ detail: { error: "warming_up" } });

    // The same document in this build's shape is served.
    const chance = { median: 0.004, p95: 0.05, pValue: 0.6, shifts: 199 };
    await svc.service.store.evidence.put({ key: REGIME_EVALUATION_KEY, at: AT + 2, body: { ...withGraded, r2AddedByChance: chance } });
    const now = await get("/v1/evaluation/regime");
    expect(now.status).toBe(200);
    expect(now.body).toMatchObject({ regimes: [{ regime: "BULL_TRENDING", hours: 40, graded_hours: 38 }], r2_added_by_chance: { median: 0.004, p95: 0.05, p_value: 0.6, shifts: 199 } });
  });

  it("answers the verdict evaluation 503 warming_up for a document without spans", async () => {
    const map: CalibrationMap = { stream: "verdict:ETH", horizonHours: 24, fittedAt: AT, kind: "base_rate", baseRate: 0.52, upShare: 0.53, outcomes: 400, windowDays: 365, steps: [] };
    await svc.service.store.evidence.put({ key: verdictEvaluationKey("ETH"), at: AT, body: { asset: "ETH", horizonHours: 24, evaluatedAt: AT, calibration: map } });
    const res = await get("/v1/evaluation/verdicts?asset=ETH");
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ detail: { error: "warming_up" } });
  });
});
