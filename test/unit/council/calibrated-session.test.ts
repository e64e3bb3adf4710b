import { describe, expect, it } from "vitest";
import { calibratedConfidence, type CalibrationMap } from "../../../src/domain/calibration/calibration-map.js";
import { calibratedSession } from "../../../src/domain/council/calibrated-session.js";
import { deliberate } from "../../../src/domain/council/deliberate.js";
import type { CouncilSession } from "../../../src/domain/council/council-types.js";
import { councilInput } from "./fixtures.js";

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
    // The agents' own figures are untouched: the veto and flag rules read them as given.
    expect(published.votes).toEqual(s.votes);
  });
});
