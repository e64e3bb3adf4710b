import { describe, expect, it } from "vitest";
import { inQuarterEndWindow, taoRiskFlags, type TaoFlagInputs } from "../../../src/domain/council/tao-risk-flags.js";
import { ROSTERS } from "../../../src/domain/council/rosters.js";
import { readings } from "../judiciary/fixtures.js";
import { historyPercentile20 } from "../../../src/domain/signals/history-percentile.js";

const agentInputs = [...new Set(ROSTERS.TAO.agents.flatMap((a) => a.inputs))];
const allLive = readings(Object.fromEntries(agentInputs.map((k) => [k, 1])));
const calm: TaoFlagInputs = {
  at: Date.UTC(2025, 4, 14, 12),
  liquidityStatus: "SUFFICIENT",
  lastHourRangePct: 1.5,
  volumeRatio: 1.2,
  hoursUntilTier1: 100,
  aiSentiment: { value: 50, percentile20: 30 },
  agentInputs,
  readings: allLive,
  agentsWithoutData: [],
};

describe("TAO risk flags (DECISIONS 7)", () => {
  it("a calm, fully-covered market raises none", () => {
    expect(taoRiskFlags(calm)).toEqual([]);
  });

  it("LIQUIDITY_RISK when liquidity is INSUFFICIENT (not when UNKNOWN)", () => {
    expect(taoRiskFlags({ ...calm, liquidityStatus: "INSUFFICIENT" })).toEqual(["LIQUIDITY_RISK"]);
    expect(taoRiskFlags({ ...calm, liquidityStatus: "UNKNOWN" })).toEqual([]);
  });

  it("MANIPULATION_RISK when the 1 h range > 8% with volume ratio > 3", () => {
    expect(taoRiskFlags({ ...calm, lastHourRangePct: 8.5, volumeRatio: 3.2 })).toEqual(["MANIPULATION_RISK"]);
    expect(taoRiskFlags({ ...calm, lastHourRangePct: 8, volumeRatio: 3.2 })).toEqual([]);
    expect(taoRiskFlags({ ...calm, lastHourRangePct: 9, volumeRatio: 3 })).toEqual([]);
    expect(taoRiskFlags({ ...calm, lastHourRangePct: null, volumeRatio: 5 })).toEqual([]);
  });

  it("INSUFFICIENT_DATA when under half of the TAO agents' inputs are live", () => {
    const half = agentInputs.slice(0, Math.ceil(agentInputs.length / 2));
    const fewer = agentInputs.slice(0, Math.ceil(agentInputs.length / 2) - 1);
    expect(taoRiskFlags({ ...calm, readings: readings(Object.fromEntries(half.map((k) => [k, 1]))) })).toEqual([]);
    expect(taoRiskFlags({ ...calm, readings: readings(Object.fromEntries(fewer.map((k) => [k, 1]))) })).toEqual(["INSUFFICIENT_DATA"]);
    expect(taoRiskFlags({ ...calm, readings: readings(Object.fromEntries(agentInputs.map((k) => [k, 1])), "STALE") })).toEqual(["INSUFFICIENT_DATA"]);
  });

  it("INSUFFICIENT_DATA when one agent has no data at all, however many other inputs are live", () => {
    expect(taoRiskFlags({ ...calm, agentsWithoutData: ["AI_NARRATIVE"] })).toEqual(["INSUFFICIENT_DATA"]);
  });

  it("ETF_EVENT_WINDOW when a TIER1 event is within 24 h", () => {
    expect(taoRiskFlags({ ...calm, hoursUntilTier1: 24 })).toEqual(["ETF_EVENT_WINDOW"]);
    expect(taoRiskFlags({ ...calm, hoursUntilTier1: 0 })).toEqual(["ETF_EVENT_WINDOW"]);
    expect(taoRiskFlags({ ...calm, hoursUntilTier1: 24.5 })).toEqual([]);
    expect(taoRiskFlags({ ...calm, hoursUntilTier1: null })).toEqual([]);
  });

  it("CENTRALIZED_AI_OVERHANG only from a live AI-sentiment source below its 20th percentile", () => {
    expect(taoRiskFlags({ ...calm, aiSentiment: { value: 10, percentile20: 30 } })).toEqual(["CENTRALIZED_AI_OVERHANG"]);
    expect(taoRiskFlags({ ...calm, aiSentiment: null })).toEqual([]);
  });

  it("CENTRALIZED_AI_OVERHANG from an observed sequence: hourly AI-sector 24 h changes, percentile of their own history", () => {
    const H = 3_600_000;
    const t0 = Date.UTC(2025, 3, 1);
    // A sector drifting from +6 % to −6 % and back over 16 days, one observation an hour.
    const history = Array.from({ length: 16 * 24 }, (_, k) => ({ observedAt: t0 + k * H, value: 6 * Math.cos((2 * Math.PI * k) / (16 * 24)) }));
    const at = t0 + 16 * 24 * H - H;
    const p20 = historyPercentile20(history, at);
    // cos below −0.809 for 20 % of a full cycle: the 20th percentile sits near 6 × cos(0.8π) = −4.85.
    expect(p20).toBeCloseTo(-4.85, 1);
    const flags = (value: number, percentile20: number | null) =>
      taoRiskFlags({ ...calm, aiSentiment: percentile20 === null ? null : { value, percentile20 } });
    expect(flags(-5.5, p20)).toEqual(["CENTRALIZED_AI_OVERHANG"]);
    expect(flags(-4, p20)).toEqual([]);
    // Ten days of the same sequence is too little history: no percentile, so never the flag.
    const short = history.filter((h) => h.observedAt < t0 + 10 * 24 * H);
    expect(historyPercentile20(short, t0 + 10 * 24 * H)).toBeNull();
    expect(flags(-50, historyPercentile20(short, t0 + 10 * 24 * H))).toEqual([]);
  });

  it("INSTITUTIONAL_REBAL on the last two days of a calendar quarter (UTC)", () => {
    expect(taoRiskFlags({ ...calm, at: Date.UTC(2025, 2, 30, 0, 0) })).toEqual(["INSTITUTIONAL_REBAL"]);
    expect(inQuarterEndWindow(Date.UTC(2025, 2, 31, 23, 59))).toBe(true);
    expect(inQuarterEndWindow(Date.UTC(2025, 2, 29, 23, 59))).toBe(false);
    expect(inQuarterEndWindow(Date.UTC(2025, 3, 1, 0, 0))).toBe(false);
    expect(inQuarterEndWindow(Date.UTC(2025, 5, 29, 8))).toBe(true);
    expect(inQuarterEndWindow(Date.UTC(2025, 8, 29, 8))).toBe(true);
    expect(inQuarterEndWindow(Date.UTC(2025, 11, 30, 8))).toBe(true);
    expect(inQuarterEndWindow(Date.UTC(2025, 10, 30, 8))).toBe(false);
  });
});
