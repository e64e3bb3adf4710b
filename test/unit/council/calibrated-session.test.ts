import { describe, expect, it } from "vitest";
import { calibratedConfidence, type CalibrationMap } from "../../../src/domain/calibration/calibration-map.js";
import { calibratedSession } from "../../../src/domain/council/calibrated-session.js";
import { deliberate } from "../../../src/domain/council/deliberate.js";
import type { CouncilSession } from "../../../src/domain/council/council-types.js";
import { councilInput, votes } from "./fixtures.js";
import { judge } from "../../../src/domain/council/chief-judge.js";
import { ROSTERS } from "../../../src/domain/council/rosters.js";

const FITTED = Date.UTC(2025, 4, 14);

/** A map whose fit says higher scores rose more often (p(up) 0.40 → 0.70), on a 0.52 base rate. */
const isotonic: CalibrationMap = {
  stream: "council:BTC",
  horizonHours: 24,
  fittedAt: FITTED,
  kind: "isotonic",
  baseRate: 0.52,
  upShare: 0.53,
  outcomes: 8760,
  windowDays: 365,
  steps: [
    { maxScore: 0, meanScore: -20, pUp: 0.4, count: 4000 },
    { maxScore: 100, meanScore: 30, pUp: 0.7, count: 4760 },
  ],
};

async function session(): Promise<CouncilSession> {
  const o = await deliberate(councilInput("BTC"), { advisor: null, newId: () => "00000000-0000-4000-8000-000000000001" });
  if (o.kind !== "session") throw new Error("paused");
  return o.session;
}

describe("a council session as published (DECISIONS 7, Confidence)", () => {
  it("judiciary mode: confidence is the map's probability for the ruling's direction; the Chief Judge's figure is kept as rawConfidence", async () => {
    const s = await session();
    expect(s.mode).toBe("judiciary");
    const published = calibratedSession(s, isotonic);
    expect(published.confidence).toBe(calibratedConfidence(isotonic, s.ruling, s.score));
    expect(published.rawConfidence).toBe(s.confidence);
    expect(published.calibration).toEqual({ kind: "isotonic", horizonHours: 24, fittedAt: FITTED, outcomes: 8760, baseRate: 0.52 });
  });

  it("a session the language model voted in gets the base rate, marked as waiting for outcomes of its own, whatever the judiciary fit says", async () => {
    const s: CouncilSession = { ...(await session()), mode: "council" };
    const published = calibratedSession(s, isotonic);
    const baseRateOnly: CalibrationMap = { ...isotonic, kind: "base_rate", steps: [] };
    expect(published.confidence).toBe(calibratedConfidence(baseRateOnly, s.ruling, s.score));
    expect(published.calibration?.kind).toBe("base_rate");
    expect(published.calibration?.awaitingModelOutcomes).toBe(true);
    // Without agent maps the votes are left as given.
    expect(published.votes).toEqual(s.votes);
  });
});

/** Per-agent maps: every agent of the roster gets `map` under its own stream name. */
function agentMaps(asset: "BTC" | "TAO" | "SOL", map: CalibrationMap): Record<string, CalibrationMap> {
  return Object.fromEntries(ROSTERS[asset].agents.map((a) => [a.name, { ...map, stream: `agent:${asset}:${a.name}` }]));
}

describe("agent votes as published (DECISIONS 7: agent votes that name a direction)", () => {
  it("a rule vote's confidence is its agent map's probability for the vote's direction at the vote's own score; the agent's figure is kept", async () => {
    const s = await session();
    const published = calibratedSession(s, isotonic, agentMaps("BTC", isotonic));
    for (const [i, v] of published.votes.entries()) {
      const given = s.votes[i];
      if (given === undefined || given.score === undefined) throw new Error("a rule vote carries its score");
      expect(v.source).toBe("rule");
      expect(v.rawConfidence).toBe(given.confidence);
      expect(v.confidence).toBe(calibratedConfidence(isotonic, given.ruling, given.score));
      expect(v.calibration).toEqual({ kind: "isotonic", horizonHours: 24, fittedAt: FITTED, outcomes: 8760, baseRate: 0.52 });
    }
    // The fixture is bullish: every agent that leans bullish now reads the map's p(up), not the 0.47 cap.
    const bullish = published.votes.filter((v) => ["BUY", "STRONG_BUY", "ACCUMULATE"].includes(v.ruling));
    expect(bullish.length).toBeGreaterThan(0);
    for (const v of bullish) expect(v.confidence).toBeGreaterThan(0.5);
  });

  it("an abstaining agent keeps its HOLD at 0.2 (DECISIONS 7), uncalibrated", async () => {
    const o = await deliberate(councilInput("TAO", { readings: [] }), { advisor: null, newId: () => "00000000-0000-4000-8000-000000000002" });
    if (o.kind !== "session") throw new Error("paused");
    const published = calibratedSession(o.session, isotonic, agentMaps("TAO", isotonic));
    const abstained = published.votes.filter((v) => v.source === "abstain");
    expect(abstained.length).toBeGreaterThan(0);
    for (const v of abstained) expect(v).toMatchObject({ ruling: "HOLD", confidence: 0.2 });
    for (const v of abstained) expect(v.calibration).toBeUndefined();
  });

  it("a model vote gets its agent's base rate, marked as waiting for outcomes; the SOL veto it cast on its own figure stands", () => {
    const cast = votes("SOL", "STRONG_BUY", 0.95, { RISK_WARDEN: ["AVOID", 0.85] });
    const j = judge(ROSTERS.SOL, cast, [], null);
    expect(j.vetoedBy).toEqual(["RISK_WARDEN"]);
    const s: CouncilSession = {
      id: "00000000-0000-4000-8000-000000000003",
      asset: "SOL",
      at: FITTED + 3_600_000,
      mode: "council",
      ruling: j.ruling,
      confidence: j.confidence,
      score: j.score,
      consensus: j.consensus.direction,
      consensusLevel: j.consensus.level,
      votes: cast,
      agentsSucceeded: 6,
      agentsFailed: 0,
      vetoedBy: j.vetoedBy,
      riskFlags: [],
      chiefRationale: "r",
      plainExplanation: "e",
      explanationSource: "template",
      snapshotSignals: {},
    };
    const published = calibratedSession(s, isotonic, agentMaps("SOL", isotonic));
    const warden = published.votes.find((v) => v.agent === "RISK_WARDEN");
    // Base rate 0.52 of up: an AVOID bets on down, so 0.48, not the model's 0.85.
    expect(warden).toMatchObject({ ruling: "AVOID", confidence: 0.48, rawConfidence: 0.85 });
    expect(warden?.calibration).toMatchObject({ kind: "base_rate", awaitingModelOutcomes: true });
    expect(published.ruling).toBe("AVOID");
    expect(published.vetoedBy).toEqual(["RISK_WARDEN"]);
  });
});
