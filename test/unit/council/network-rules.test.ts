import { describe, expect, it } from "vitest";
import {
  NETWORK_RULES,
  stakingContribution,
  taoStakingTrendContribution,
  taoSubnetTrendContribution,
  tpsChangeContribution,
} from "../../../src/domain/council/network-rules.js";
import { ROSTERS } from "../../../src/domain/council/rosters.js";
import { ruleVote } from "../../../src/domain/council/rule-agent.js";
import { readings } from "../judiciary/fixtures.js";
import { councilInput } from "./fixtures.js";

const agent = (asset: "SOL" | "TAO", name: string) => {
  const a = ROSTERS[asset].agents.find((x) => x.name === name);
  if (!a) throw new Error(name);
  return a;
};
const c = (key: string, v: number) => NETWORK_RULES[key]?.contribution(v, null);

describe("council rules of the live network and sector figures", () => {
  it("NETWORK_TPS level is context: no lean, weight 0", () => {
    expect(NETWORK_RULES.NETWORK_TPS?.weight).toBe(0);
    expect(c("NETWORK_TPS", 300)).toBe(0);
  });

  it("NETWORK_TPS_TREND: no lean down to −10 %, then bearish, −1 at −50 %; a rise is not bullish", () => {
    expect(tpsChangeContribution(25)).toBe(0);
    expect(tpsChangeContribution(-10)).toBe(0);
    expect(tpsChangeContribution(-30)).toBeCloseTo(-0.5, 12);
    expect(tpsChangeContribution(-50)).toBe(-1);
    expect(tpsChangeContribution(-90)).toBe(-1);
  });

  it("STAKING_PARTICIPATION: no lean at ≥ 60 % of supply, bearish below, −1 at 50 %", () => {
    expect(stakingContribution(68)).toBe(0);
    expect(stakingContribution(60)).toBe(0);
    expect(stakingContribution(55)).toBeCloseTo(-0.5, 12);
    expect(stakingContribution(50)).toBe(-1);
    expect(stakingContribution(20)).toBe(-1);
  });

  it("AI_SENTIMENT: lin(0, 10) on the AI sector's 24 h market-cap change", () => {
    expect(c("AI_SENTIMENT", -12)).toBe(-1);
    expect(c("AI_SENTIMENT", -4)).toBeCloseTo(-0.4, 12);
    expect(c("AI_SENTIMENT", 0)).toBe(0);
    expect(c("AI_SENTIMENT", 6)).toBeCloseTo(0.6, 12);
  });

  it("NETWORK_SENTINEL votes on them: collapsing throughput is AVOID, a healthy network HOLD", () => {
    const sentinel = agent("SOL", "NETWORK_SENTINEL");
    expect(sentinel.inputs).toEqual(["NETWORK_TPS", "NETWORK_TPS_TREND", "STAKING_PARTICIPATION"]);
    const falling = ruleVote(sentinel, councilInput("SOL", { readings: readings({ NETWORK_TPS: 600, NETWORK_TPS_TREND: -50, STAKING_PARTICIPATION: 66 }) }), true);
    // score = 100 × (−1 + 0) / 2 directional inputs = −50 → SOL scale AVOID; all inputs live and agreeing → 0.47.
    expect(falling).toMatchObject({ ruling: "AVOID", confidence: 0.47, source: "rule", missing: [] });
    const mild = ruleVote(sentinel, councilInput("SOL", { readings: readings({ NETWORK_TPS: 950, NETWORK_TPS_TREND: -20, STAKING_PARTICIPATION: 66 }) }), true);
    // −20 % → c = −0.25 → score −12.5 → HOLD.
    expect(mild.ruling).toBe("HOLD");
    const unstaking = ruleVote(sentinel, councilInput("SOL", { readings: readings({ NETWORK_TPS: 1000, NETWORK_TPS_TREND: 0, STAKING_PARTICIPATION: 55 }) }), true);
    // c = −0.5 → score −25 → REDUCE.
    expect(unstaking.ruling).toBe("REDUCE");
    expect(falling.thesis).toContain("Network TPS change");
  });

  it("AI_NARRATIVE votes on the AI sector: a −8 % day is STRONG_SELL, +4 % BUY", () => {
    const narrative = agent("TAO", "AI_NARRATIVE");
    expect(narrative.inputs).toEqual(["AI_SENTIMENT"]);
    expect(ruleVote(narrative, councilInput("TAO", { readings: readings({ AI_SENTIMENT: -8 }) }), false)).toMatchObject({ ruling: "STRONG_SELL", source: "rule" });
    expect(ruleVote(narrative, councilInput("TAO", { readings: readings({ AI_SENTIMENT: 4 }) }), false).ruling).toBe("BUY");
  });

  it("TAO_STAKING_RATIO and TAO_SUBNET_COUNT levels are context: no lean, weight 0", () => {
    expect(NETWORK_RULES.TAO_STAKING_RATIO?.weight).toBe(0);
    expect(NETWORK_RULES.TAO_SUBNET_COUNT?.weight).toBe(0);
    expect(c("TAO_STAKING_RATIO", 20)).toBe(0);
    expect(c("TAO_SUBNET_COUNT", 3)).toBe(0);
  });

  it("TAO_STAKING_RATIO_TREND: no lean within ±0.25 pp; falling bearish to −1 at −2 pp; rising at most +0.5 at +2 pp", () => {
    expect(taoStakingTrendContribution(0)).toBe(0);
    expect(taoStakingTrendContribution(0.25)).toBe(0);
    expect(taoStakingTrendContribution(-0.25)).toBe(0);
    // (−1.125 + 0.25) / 1.75 = −0.5
    expect(taoStakingTrendContribution(-1.125)).toBeCloseTo(-0.5, 12);
    expect(taoStakingTrendContribution(-2)).toBe(-1);
    expect(taoStakingTrendContribution(-6)).toBe(-1);
    // 0.5 × (1.125 − 0.25) / 1.75 = 0.25
    expect(taoStakingTrendContribution(1.125)).toBeCloseTo(0.25, 12);
    expect(taoStakingTrendContribution(2)).toBe(0.5);
    expect(taoStakingTrendContribution(9)).toBe(0.5);
  });

  it("TAO_SUBNET_COUNT_TREND: growth mildly bullish, +0.5 at +10 % in 30 days; flat or falling no lean", () => {
    expect(taoSubnetTrendContribution(0)).toBe(0);
    expect(taoSubnetTrendContribution(-8)).toBe(0);
    expect(taoSubnetTrendContribution(4)).toBeCloseTo(0.2, 12);
    expect(taoSubnetTrendContribution(10)).toBe(0.5);
    expect(taoSubnetTrendContribution(40)).toBe(0.5);
  });

  it("SUBNET_ORACLE votes on them: heavy unstaking is SELL, a steady network HOLD, growth ACCUMULATE", () => {
    const oracle = agent("TAO", "SUBNET_ORACLE");
    expect(oracle.inputs).toEqual(["TAO_STAKING_RATIO", "TAO_STAKING_RATIO_TREND", "TAO_SUBNET_COUNT", "TAO_SUBNET_COUNT_TREND"]);
    const vote = (v: Record<string, number>) => ruleVote(oracle, councilInput("TAO", { readings: readings(v) }), false);
    const unstaking = vote({ TAO_STAKING_RATIO: 68, TAO_STAKING_RATIO_TREND: -2.5, TAO_SUBNET_COUNT: 128, TAO_SUBNET_COUNT_TREND: 0 });
    // score = 100 × (−1 + 0) / 2 directional inputs = −50 → SELL; both lean one way or none → 0.47.
    expect(unstaking).toMatchObject({ ruling: "SELL", confidence: 0.47, source: "rule", missing: [] });
    expect(unstaking.thesis).toContain("TAO staking ratio change (7d)");
    const steady = vote({ TAO_STAKING_RATIO: 68, TAO_STAKING_RATIO_TREND: 0.1, TAO_SUBNET_COUNT: 128, TAO_SUBNET_COUNT_TREND: 0 });
    expect(steady).toMatchObject({ ruling: "HOLD", source: "rule" });
    // Staking +2 pp (+0.5) and subnets +10 % (+0.5): score 50 → BUY; the caps keep it below STRONG_BUY.
    expect(vote({ TAO_STAKING_RATIO: 70, TAO_STAKING_RATIO_TREND: 4, TAO_SUBNET_COUNT: 140, TAO_SUBNET_COUNT_TREND: 12 }).ruling).toBe("BUY");
    // +1.125 pp (+0.25) with a flat count: score 12.5 → HOLD; + 6 % subnets (+0.3): score 27.5 → ACCUMULATE.
    expect(vote({ TAO_STAKING_RATIO: 70, TAO_STAKING_RATIO_TREND: 1.125, TAO_SUBNET_COUNT: 128, TAO_SUBNET_COUNT_TREND: 0 }).ruling).toBe("HOLD");
    expect(vote({ TAO_STAKING_RATIO: 70, TAO_STAKING_RATIO_TREND: 1.125, TAO_SUBNET_COUNT: 128, TAO_SUBNET_COUNT_TREND: 6 }).ruling).toBe("ACCUMULATE");
  });

  it("SUBNET_ORACLE with the levels only (first week of history): HOLD on context, trends named as missing", () => {
    const oracle = agent("TAO", "SUBNET_ORACLE");
    const v = ruleVote(oracle, councilInput("TAO", { readings: readings({ TAO_STAKING_RATIO: 68, TAO_SUBNET_COUNT: 128 }) }), false);
    // Half the inputs live: 0.47 × √0.5 = 0.33.
    expect(v).toMatchObject({ ruling: "HOLD", confidence: 0.33, source: "rule", missing: ["TAO_STAKING_RATIO_TREND", "TAO_SUBNET_COUNT_TREND"] });
  });
});
