import { describe, expect, it } from "vitest";
import { councilNewData } from "../../../src/domain/council/council-event.js";
import { deliberate } from "../../../src/domain/council/deliberate.js";
import type { CouncilSession } from "../../../src/domain/council/council-types.js";
import { assetVerdictView, btcCouncilView, confidenceBasisView, verdictCouncilFields } from "../../../src/domain/council/session-views.js";
import { evaluateJudiciary } from "../../../src/domain/judiciary/evaluate.js";
import { verdictNewData } from "../../../src/domain/judiciary/judiciary-verdict.js";
import { btcCouncilSessionSchema, councilNewDataSchema, solVerdictSchema, taoVerdictSchema } from "../../../src/http/schemas/council.js";
import { btcVerdictSchema, verdictNewDataSchema } from "../../../src/http/schemas/judiciary.js";
import { councilInput } from "./fixtures.js";
import { calibratedSession } from "../../../src/domain/council/calibrated-session.js";
import { ROSTERS } from "../../../src/domain/council/rosters.js";

const FITTED = Date.UTC(2025, 4, 14);

const UUID = "3f1c2a4e-8b7d-4c1e-9a2b-5d6e7f8a9b0c";
const cache = { cached: false, cache_ttl_seconds: 60 };

async function run(asset: "BTC" | "TAO" | "SOL", over = {}): Promise<CouncilSession> {
  const o = await deliberate(councilInput(asset, over), { advisor: null, newId: () => UUID });
  if (o.kind !== "session") throw new Error("paused");
  return o.session;
}

describe("session views match the response schemas", () => {
  it("says how a confidence was obtained, and that one stored before calibration is uncalibrated", () => {
    expect(confidenceBasisView(undefined, "BUY")).toMatchObject({ kind: "uncalibrated", horizon_hours: null, fitted_at: null });
    expect(confidenceBasisView(undefined, "BUY").note).toMatch(/^not calibrated/);
    const at = Date.UTC(2025, 0, 2);
    const basis = { kind: "base_rate" as const, horizonHours: 24, fittedAt: at, outcomes: 8760, baseRate: 0.51 };
    expect(confidenceBasisView(basis, "REDUCE")).toEqual({
      kind: "base_rate",
      horizon_hours: 24,
      fitted_at: "2025-01-02T00:00:00.000Z",
      note: "calibrated: no measurable skill in the trailing window, so the base rate of the ruling's direction",
    });
    // A session the language model voted in says its figure is a stand-in, not a fit.
    expect(confidenceBasisView({ ...basis, awaitingModelOutcomes: true }, "SELL").note).toMatch(/language model voted.*not yet have enough graded outcomes of their own/);
    // Once they have, the map is fitted on them, and the note says whose outcomes they were.
    expect(confidenceBasisView({ ...basis, modelOutcomes: true }, "BUY").note).toMatch(/^calibrated: no measurable skill.*language model said, graded on its own outcomes/);
  });

  it("a HOLD's note names the likelier direction, never the ruling's (HOLD names none)", () => {
    const basis = { kind: "base_rate" as const, horizonHours: 24, fittedAt: Date.UTC(2025, 0, 2), outcomes: 8760, baseRate: 0.51 };
    for (const b of [basis, { ...basis, kind: "isotonic" as const }, { ...basis, awaitingModelOutcomes: true }, { ...basis, modelOutcomes: true }]) {
      const note = confidenceBasisView(b, "HOLD").note;
      expect(note).not.toMatch(/ruling's direction/);
      expect(note).toMatch(/likelier direction \(HOLD names none\)/);
    }
    expect(confidenceBasisView({ ...basis, kind: "isotonic" }, "BUY").note).toBe("calibrated: fitted on this stream's graded outcomes, which showed skill");
  });

  it("a session stored before agent calibration says its votes carry the agents' own figures", async () => {
    const s = await run("BTC");
    expect(btcCouncilView(s).agents_confidence_basis).toMatchObject({ kind: "uncalibrated", horizon_hours: null });
    expect(btcCouncilView(s).agents.every((a) => a.confidence_basis.kind === "uncalibrated" && a.raw_confidence === a.confidence)).toBe(true);
    expect(verdictCouncilFields(s, "judiciary").agents_confidence_basis?.kind).toBe("uncalibrated");
    expect(verdictCouncilFields(null, null).agents_confidence_basis).toBeNull();
  });

  it("calibrated votes: each shows its calibrated confidence, the agent's own figure and its map's basis, on every view", async () => {
    const map = { stream: "agent", horizonHours: 24, fittedAt: FITTED, kind: "base_rate" as const, baseRate: 0.53, upShare: 0.56, outcomes: 8000, windowDays: 365, steps: [] };
    const maps = (asset: "BTC" | "TAO" | "SOL") => Object.fromEntries(ROSTERS[asset].agents.map((a) => [a.name, map]));
    const btc = calibratedSession(await run("BTC"), map, maps("BTC"));
    const view = btcCouncilView(btc);
    expect(view.agents_confidence_basis).toMatchObject({ kind: "per_agent", horizon_hours: 24, fitted_at: "2025-05-14T00:00:00.000Z" });
    for (const [i, a] of view.agents.entries()) {
      const v = btc.votes[i];
      expect(a).toMatchObject({ confidence: v?.confidence, raw_confidence: v?.rawConfidence, confidence_basis: { kind: "base_rate", horizon_hours: 24 } });
      // A no-skill map: a bullish vote is the base rate of up, a bearish one of down.
      expect([0.53, 0.47, 0.53]).toContain(a.confidence);
    }
    expect(btcCouncilSessionSchema.safeParse({ ...view, ...cache }).error?.issues ?? []).toEqual([]);
    expect(verdictCouncilFields(btc, "judiciary").agents?.[0]).toMatchObject({ raw_confidence: btc.votes[0]?.rawConfidence, confidence_basis: { kind: "base_rate" } });

    const tao = calibratedSession(await run("TAO", { readings: [] }), map, maps("TAO"));
    const taoView = assetVerdictView(tao);
    expect(taoVerdictSchema.safeParse(taoView).error?.issues ?? []).toEqual([]);
    expect(taoView.agentVotesConfidenceBasis.kind).toBe("per_agent");
    // With no data every TAO agent abstains: HOLD at its own 0.2, said plainly.
    const oracle = taoView.agentVotes["SUBNET_ORACLE"];
    expect(oracle).toMatchObject({ ruling: "HOLD", confidence: 0.2, rawConfidence: 0.2, confidenceBasis: { kind: "abstained" } });
    expect(oracle?.confidenceBasis.note).toMatch(/abstains/);
  });

  it("BTC council latest", async () => {
    const s = await run("BTC");
    expect(btcCouncilSessionSchema.safeParse({ ...btcCouncilView(s), ...cache }).success).toBe(true);
  });

  it("BTC verdict with and without council data", async () => {
    const s = await run("BTC");
    const v = evaluateJudiciary("BTC", { regime: "BULL_TRENDING", price: 100_000, readings: [] });
    const base = {
      ruling: v.ruling,
      confidence: v.confidence,
      confidence_basis: confidenceBasisView(undefined, v.ruling),
      score: v.score,
      btc_price: 100_000,
      timestamp: new Date().toISOString(),
      macro_context: v.macroContext,
      ...cache,
    };
    expect(btcVerdictSchema.parse({ ...base, ...verdictCouncilFields(s, "judiciary") }).agents).toHaveLength(6);
    expect(btcVerdictSchema.parse({ ...base, ...verdictCouncilFields(null, null) }).council_mode).toBeNull();
  });

  it("say who wrote the explanation: the model's Chief Judge or the service's template", async () => {
    const templated = await run("BTC");
    expect(verdictCouncilFields(templated, "judiciary").council_explanation_source).toBe("template");
    expect(verdictCouncilFields(null, null).council_explanation_source).toBeNull();
    const written: CouncilSession = { ...(await run("TAO")), plainExplanation: "The council rules HOLD. Flows are mixed.", explanationSource: "model" };
    expect(taoVerdictSchema.parse(assetVerdictView(written)).explanationSource).toBe("model");
  });

  it("TAO verdict", async () => {
    const s = await run("TAO");
    const r = taoVerdictSchema.safeParse(assetVerdictView(s));
    expect(r.error?.issues ?? []).toEqual([]);
  });

  it("SOL verdict (null snapshot values allowed)", async () => {
    const s = await run("SOL", { snapshotSignals: { sol_price: 150, rsi_1h: 35, ema_200: 140, sol_network_tps: null, sol_defi_tvl_trend: 6, sol_staking_participation: null } });
    const r = solVerdictSchema.safeParse(assetVerdictView(s));
    expect(r.error?.issues ?? []).toEqual([]);
  });

  it("event payloads", async () => {
    const s = await run("SOL");
    expect(councilNewDataSchema.safeParse(councilNewData(s)).success).toBe(true);
    const v = evaluateJudiciary("BTC", { regime: null, price: null, readings: [] });
    expect(verdictNewDataSchema.safeParse(verdictNewData(v)).success).toBe(true);
  });
});
