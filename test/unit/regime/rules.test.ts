import { describe, expect, it } from "vitest";
import type { Regime } from "../../../src/domain/market/vocabulary.js";
import { choppiness } from "../../../src/domain/regime/choppiness.js";
import { DEAD_FLOWS, withFlowContext } from "../../../src/domain/regime/flow-context.js";
import { evaluateHysteresis, INITIAL_HYSTERESIS, type HysteresisState } from "../../../src/domain/regime/hysteresis.js";
import { hmmModelSchema } from "../../../src/domain/regime/model-schema.js";
import { labelState } from "../../../src/domain/regime/state-labels.js";
import { breakoutImminent, strengthOf } from "../../../src/domain/regime/strength.js";
import { volatilityState } from "../../../src/domain/regime/volatility-state.js";

describe("hysteresis (DECISIONS 4: ≥ 0.6 on two consecutive hourly evaluations)", () => {
  const probs = (entries: [Regime, number][]) => new Map(entries);
  it("follows a scripted posterior sequence", () => {
    const script: [Regime, number][][] = [
      [["BULL_TRENDING", 0.7], ["HIGH_VOLATILITY", 0.3]], // first reading: adopted at once
      [["BULL_TRENDING", 0.3], ["HIGH_VOLATILITY", 0.7]], // 1st at ≥ 0.6: hold
      [["BULL_TRENDING", 0.45], ["HIGH_VOLATILITY", 0.55]], // most probable but < 0.6: streak resets
      [["BULL_TRENDING", 0.35], ["HIGH_VOLATILITY", 0.65]], // 1st again
      [["BULL_TRENDING", 0.2], ["HIGH_VOLATILITY", 0.8]], // 2nd: switch
      [["BULL_TRENDING", 0.9], ["HIGH_VOLATILITY", 0.1]], // back: 1st
      [["LOW_VOLATILITY", 0.95], ["HIGH_VOLATILITY", 0.05]], // another regime: its own 1st
      [["LOW_VOLATILITY", 0.95], ["HIGH_VOLATILITY", 0.05]], // 2nd: switch
    ];
    const expected = ["BULL_TRENDING", "BULL_TRENDING", "BULL_TRENDING", "BULL_TRENDING", "HIGH_VOLATILITY", "HIGH_VOLATILITY", "HIGH_VOLATILITY", "LOW_VOLATILITY"];
    let state: HysteresisState = INITIAL_HYSTERESIS;
    const changes: (string | null)[] = [];
    script.forEach((p, hour) => {
      const step = evaluateHysteresis(state, probs(p), hour * 3_600_000);
      state = step.state;
      expect(state.regime, `hour ${hour}`).toBe(expected[hour]);
      changes.push(step.change ? `${step.change.from}->${step.change.to}` : null);
    });
    expect(changes.filter((c) => c !== null)).toEqual(["null->BULL_TRENDING", "BULL_TRENDING->HIGH_VOLATILITY", "HIGH_VOLATILITY->LOW_VOLATILITY"]);
    expect(state.since).toBe(7 * 3_600_000);
  });
});

describe("state labels from emission means (ret, vol, volume, trend in σ)", () => {
  it.each([
    [[1.5, 0.9, 0.5, 1.2], "BULL_TRENDING"],
    [[-1.5, 1.2, 0.5, -0.7], "HIGH_VOLATILITY"],
    [[-0.6, 0.2, 0.1, -0.7], "BEAR_TRENDING"],
    [[0, -1.2, -0.5, 0.1], "LOW_VOLATILITY"],
    [[0.2, 0.1, 0.6, 0.2], "RISK_ON"],
    [[-0.2, 0.1, 0.6, -0.2], "DISTRIBUTION"],
    [[-0.1, 0, 0, 0], "ACCUMULATION"],
    [[-0.4, 0, 0, -0.1], "DISTRIBUTION"],
  ] as [number[], Regime][])("%j → %s", (means, regime) => {
    expect(labelState(means)).toBe(regime);
  });

  it("splits accumulation by flows, and says when the flow signals are DEAD", () => {
    expect(withFlowContext("ACCUMULATION", DEAD_FLOWS)).toEqual({ regime: "ACCUMULATION", note: "FLOW_SIGNALS_DEAD" });
    expect(withFlowContext("ACCUMULATION", { entityPressure: 850, whaleFlow: null }).regime).toBe("WHALE_ACCUMULATION");
    expect(withFlowContext("ACCUMULATION", { entityPressure: -300, whaleFlow: null })).toEqual({ regime: "ACCUMULATION", note: "STEALTH" });
    expect(withFlowContext("BULL_TRENDING", DEAD_FLOWS)).toEqual({ regime: "BULL_TRENDING", note: null });
  });
});

describe("report fields", () => {
  it("strength and breakout follow confidence", () => {
    expect([strengthOf(0.85), strengthOf(0.6), strengthOf(0.59)]).toEqual(["STRONG", "MODERATE", "WEAK"]);
    expect(breakoutImminent("LOW_VOLATILITY", 0.7)).toBe(true);
    expect(breakoutImminent("LOW_VOLATILITY", 0.69)).toBe(false);
    expect(breakoutImminent("HIGH_VOLATILITY", 0.99)).toBe(false);
  });

  it("volatility state: level first, then day-over-day change", () => {
    expect(volatilityState(1.2, 0)).toBe("ELEVATED");
    expect(volatilityState(-1, -1)).toBe("COMPRESSED");
    expect(volatilityState(0.4, -0.3)).toBe("EXPANDING");
    expect(volatilityState(-0.3, 0.4)).toBe("CONTRACTING");
    expect(volatilityState(0.1, 0)).toBe("NORMAL");
  });

  it("chop score: 0 for a straight move, near 1 for a back-and-forth, 1 when flat", () => {
    const bar = (i: number, c: number, o = c) => ({ t: i, o, h: Math.max(o, c), l: Math.min(o, c), c, v: 1 });
    const straight = Array.from({ length: 20 }, (_, i) => bar(i, 100 + i, 100 + i - 1));
    const chop = Array.from({ length: 20 }, (_, i) => bar(i, i % 2 ? 101 : 100, i % 2 ? 100 : 101));
    expect(choppiness(straight)).toBeCloseTo(0, 9);
    expect(choppiness(chop)).toBeCloseTo(1, 9);
    expect(choppiness(Array.from({ length: 20 }, (_, i) => bar(i, 100)))).toBe(1);
    expect(choppiness(straight.slice(0, 10))).toBeNull();
  });
});

describe("model JSON schema", () => {
  const good = { startprob: [0.5, 0.5], transmat: [[0.9, 0.1], [0.2, 0.8]], means: [[0], [1]], covars: [[1], [2]] };
  it("accepts a valid model and rejects broken ones", () => {
    expect(hmmModelSchema.safeParse(good).success).toBe(true);
    expect(hmmModelSchema.safeParse({ ...good, transmat: [[0.9, 0.2], [0.2, 0.8]] }).success).toBe(false);
    expect(hmmModelSchema.safeParse({ ...good, covars: [[1], [0]] }).success).toBe(false);
    expect(hmmModelSchema.safeParse({ ...good, means: [[0, 1], [1, 2]] }).success).toBe(false);
    expect(hmmModelSchema.safeParse({ ...good, startprob: [1] }).success).toBe(false);
  });
});
