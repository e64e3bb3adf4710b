import { describe, expect, it } from "vitest";
import { calibratedConfidence, type CalibrationMap } from "../../../src/domain/calibration/calibration-map.js";
import { PricePath, type PricePoint } from "../../../src/domain/calibration/price-path.js";
import { calibratedSession } from "../../../src/domain/council/calibrated-session.js";
import type { CouncilSession } from "../../../src/domain/council/council-types.js";
import { fitModelMaps, modelVoteScore, usableModelMap } from "../../../src/domain/council/model-calibration.js";
import { ROSTERS } from "../../../src/domain/council/rosters.js";
import { modelSession, votes } from "./fixtures.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = Date.UTC(2025, 0, 1);

/** A seeded random walk of hourly closes: no drift, so no base rate to lean on. */
function walk(days: number): PricePoint[] {
  let seed = 7;
  const rand = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const out: PricePoint[] = [];
  let close = 100;
  for (let t = START; t <= START + days * DAY; t += HOUR) {
    out.push({ t, close });
    close *= 1 + (rand() - 0.5) * 0.02;
  }
  return out;
}

const priceAt = (prices: readonly PricePoint[], t: number) => prices.find((p) => p.t === t)?.close ?? 0;

/**
 * Model sessions every 30 minutes over `days`. `skilled`: the model called the next 24 h right
 * (an oracle), BUY at 0.8 before a rise, SELL at 0.8 before a fall, and so did every agent.
 */
function modelSessions(prices: readonly PricePoint[], days: number, skilled: boolean): CouncilSession[] {
  const out: CouncilSession[] = [];
  for (let t = START; t < START + days * DAY; t += HOUR / 2) out.push(modelSession(t, skilled ? priceAt(prices, t + DAY) > priceAt(prices, t) : (t / HOUR) % 2 === 0));
  return out;
}

/** A judiciary-mode map with no skill: the base rate. */
const judiciaryMap: CalibrationMap = {
  stream: "council:BTC",
  horizonHours: 24,
  fittedAt: START + 100 * DAY,
  kind: "base_rate",
  baseRate: 0.52,
  upShare: 0.53,
  outcomes: 8760,
  windowDays: 365,
  steps: [],
};

describe("council-mode calibration: the model's own sessions and votes (issue 16)", () => {
  const prices = walk(130);
  const path = PricePath.of(prices);

  it("a model that was right learns a fit on its own outcomes: its sessions and votes then read that, not the base rate", () => {
    const sessions = modelSessions(prices, 100, true);
    const at = START + 100 * DAY + 6 * HOUR;
    const maps = fitModelMaps("BTC", sessions, path, at);
    expect(maps.fittedAt).toBe(START + 100 * DAY);
    expect(maps.session.kind).toBe("isotonic");
    // One graded outcome per clock hour (not per 30-minute session), matured by the fit time.
    // Every hour from the first session to a day before the fit: 99 days and the fit hour's own.
    expect(maps.session.outcomes).toBe(99 * 24 + 1);
    expect(Object.keys(maps.agents).sort()).toEqual(ROSTERS.BTC.agents.map((a) => a.name).sort());
    expect(maps.agents["TECH HAWK"]?.kind).toBe("isotonic");

    const next = { ...(sessions.at(-1) as CouncilSession), at, ruling: "BUY" as const, score: 47.5, votes: votes("BTC", "BUY", 0.8).map((v) => ({ ...v, source: "model" as const })) };
    const published = calibratedSession(next, judiciaryMap, {}, maps);
    expect(published.confidence).toBe(calibratedConfidence(maps.session, "BUY", 47.5));
    expect(published.confidence).toBeGreaterThan(0.9);
    expect(published.calibration).toMatchObject({ kind: "isotonic", modelOutcomes: true });
    expect(published.calibration?.awaitingModelOutcomes).toBeUndefined();
    const hawk = published.votes.find((v) => v.agent === "TECH HAWK");
    expect(hawk?.confidence).toBe(calibratedConfidence(maps.agents["TECH HAWK"] as CalibrationMap, "BUY", modelVoteScore({ ruling: "BUY", confidence: 0.8 })));
    expect(hawk?.confidence).toBeGreaterThan(0.9);
    expect(hawk?.rawConfidence).toBe(0.8);
  });

  it("a model with no skill gets its own stream's base rate, not a fit", () => {
    const maps = fitModelMaps("BTC", modelSessions(prices, 100, false), path, START + 100 * DAY);
    expect(maps.session.kind).toBe("base_rate");
    expect(usableModelMap(maps.session)).not.toBeNull();
  });

  it("under 60 market days of model sessions: the judiciary stream's base rate, marked as waiting for model outcomes", () => {
    const sessions = modelSessions(prices, 40, true);
    const maps = fitModelMaps("BTC", sessions, path, START + 40 * DAY);
    expect(usableModelMap(maps.session)).toBeNull();
    const published = calibratedSession(sessions.at(-1) as CouncilSession, judiciaryMap, {}, maps);
    expect(published.calibration).toMatchObject({ kind: "base_rate", awaitingModelOutcomes: true });
    expect(published.confidence).toBe(calibratedConfidence(judiciaryMap, published.ruling, published.score));
  });

  it("reads nothing after the fit time: later sessions and later prices leave the day's maps unchanged", () => {
    const at = START + 90 * DAY;
    const upTo = fitModelMaps("BTC", modelSessions(prices, 90, true), path.upTo(at), at);
    const withLater = fitModelMaps("BTC", modelSessions(prices, 100, true), path, at);
    expect(withLater).toEqual(upTo);
  });
});
