import { describe, expect, it } from "vitest";
import { evaluateJudiciary } from "../../../src/domain/judiciary/evaluate.js";
import { verdictNewData } from "../../../src/domain/judiciary/judiciary-verdict.js";
import { SIGNAL_KEYS } from "../../../src/domain/signals/signal-keys.js";
import { BEARISH_BTC, BULLISH_BTC, NEUTRAL_BTC, readings } from "./fixtures.js";

const base = { regime: "BULL_TRENDING" as const, price: 100_000 };

describe("Judiciary Engine (BTC)", () => {
  it("neutral readings give HOLD at score 0", () => {
    const v = evaluateJudiciary("BTC", { ...base, readings: readings(NEUTRAL_BTC) });
    expect(v.score).toBe(0);
    expect(v.ruling).toBe("HOLD");
    expect(v.coverage).toEqual({ live: 27, stale: 0, dead: 0, total: 27 });
  });

  it("a value that is not a finite number counts as DEAD, not as a live reading with no lean", () => {
    const v = evaluateJudiciary("BTC", { ...base, readings: readings({ ...BULLISH_BTC, DXY: Number.POSITIVE_INFINITY, GOLD: Number.NaN }) });
    expect(v.coverage).toEqual({ live: 25, stale: 0, dead: 2, total: 27 });
    // The other 25 still rule: the bullish ceiling less the two missing inputs' share.
    expect(v.ruling).toBe("STRONG_BUY");
  });

  it("all-bullish readings give STRONG_BUY with full confidence", () => {
    const v = evaluateJudiciary("BTC", { ...base, readings: readings(BULLISH_BTC) });
    // Risk signals only ever lean bearish: calm markets leave them at 0, so 17 of 21
    // directional signals at +1 is the bullish ceiling: 81.
    expect(v.score).toBe(81);
    expect(v.ruling).toBe("STRONG_BUY");
    expect(v.confidence).toBe(1);
  });

  it("all-bearish readings give STRONG_SELL at -97.6 (the liquidation flag leans at most -0.5)", () => {
    const v = evaluateJudiciary("BTC", { ...base, readings: readings(BEARISH_BTC) });
    // The liquidation-proximity flag leans at most -0.5.
    expect(v.score).toBe(-97.6);
    expect(v.ruling).toBe("STRONG_SELL");
  });

  it("the score stays within [-100, 100] for absurd values", () => {
    const wild = Object.fromEntries(SIGNAL_KEYS.map((k) => [k, 1e12]));
    const v = evaluateJudiciary("BTC", { ...base, readings: readings(wild) });
    expect(Math.abs(v.score)).toBeLessThanOrEqual(100);
  });

  it("DEAD signals lower confidence and are left out of the score", () => {
    const dead = Object.fromEntries(["SOPR", "EXCHANGE_NETFLOW", "PUT_CALL_RATIO", "WHALE_FLOW", "LIQ_DIRECTIONAL_BIAS", "LIQ_CASCADE_RISK", "LIQ_PROXIMITY_ALERT", "OPTIONS_OI", "BTC_OPEN_INTEREST", "BTC_DOMINANCE"].map((k) => [k, "DEAD" as const]));
    const full = evaluateJudiciary("BTC", { ...base, readings: readings(BULLISH_BTC) });
    const partial = evaluateJudiciary("BTC", { ...base, readings: readings(BULLISH_BTC, "LIVE", dead) });
    expect(partial.ruling).toBe("STRONG_BUY");
    expect(partial.coverage.dead).toBe(10);
    expect(partial.confidence).toBeLessThan(full.confidence);
    expect(partial.evidence.find((e) => e.key === "SOPR")?.reason).toMatch(/DEAD/);
  });

  it("signals missing from the input count as DEAD", () => {
    const v = evaluateJudiciary("BTC", { ...base, readings: readings({ BTC_RSI: 20 }) });
    expect(v.coverage).toEqual({ live: 1, stale: 0, dead: 26, total: 27 });
    expect(v.confidence).toBeLessThan(0.25);
  });

  it("no live signal at all: HOLD with zero confidence", () => {
    const v = evaluateJudiciary("BTC", { ...base, readings: [] });
    expect(v).toMatchObject({ ruling: "HOLD", score: 0, confidence: 0 });
    expect(v.summary).toMatch(/no live signals/);
  });

  it("disagreement lowers confidence", () => {
    const mixed = { ...BULLISH_BTC, US10Y: 5.5, DXY: 110, BTC_RSI: 85, FEAR_GREED_INDEX: 95, DVOL: 120 };
    const agree = evaluateJudiciary("BTC", { ...base, readings: readings(BULLISH_BTC) });
    const split = evaluateJudiciary("BTC", { ...base, readings: readings(mixed) });
    expect(split.confidence).toBeLessThan(agree.confidence);
    expect(split.score).toBeLessThan(agree.score);
  });

  it("STALE readings count at half weight", () => {
    const v = evaluateJudiciary("BTC", { ...base, readings: [...readings({ BTC_RSI: 30 }), ...readings({ BTC_EMA200_DISTANCE: -5 }, "STALE")] });
    // RSI +0.5 at weight 1, EMA -1 at weight 0.5: (0.5 - 0.5) / 1.5 = 0.
    expect(v.score).toBe(0);
    expect(v.coverage.stale).toBe(1);
    expect(v.evidence.find((e) => e.key === "BTC_EMA200_DISTANCE")?.reason).toMatch(/STALE/);
  });

  it("applies the regime multiplier to each signal", () => {
    const input = { ...base, readings: readings({ BTC_RSI: 30, BTC_EMA200_DISTANCE: -2.5 }) };
    expect(evaluateJudiciary("BTC", input).score).toBe(0);
    const boosted = evaluateJudiciary("BTC", { ...input, multiplier: (k, r) => (k === "BTC_RSI" && r === "BULL_TRENDING" ? 2 : 1) });
    // (2·0.5 − 1·0.5) / 3 × 100
    expect(boosted.score).toBeCloseTo(16.7, 1);
    expect(boosted.evidence.find((e) => e.key === "BTC_RSI")?.multiplier).toBe(2);
  });

  it("clamps multipliers outside SPEC's [0.30, 2.00]", () => {
    const v = evaluateJudiciary("BTC", { ...base, readings: readings({ BTC_RSI: 20 }), multiplier: () => 50 });
    expect(v.evidence.find((e) => e.key === "BTC_RSI")?.multiplier).toBe(2);
  });

  it("is deterministic", () => {
    const input = { ...base, readings: readings({ ...NEUTRAL_BTC, BTC_RSI: 33, DXY: 104 }) };
    expect(evaluateJudiciary("BTC", input)).toEqual(evaluateJudiciary("BTC", input));
  });

  it("explains itself: every signal has a reason, drivers name the strongest", () => {
    const v = evaluateJudiciary("BTC", { ...base, readings: readings({ ...NEUTRAL_BTC, BTC_RSI: 25, DXY: 106 }) });
    expect(v.evidence).toHaveLength(27);
    expect(v.evidence.every((e) => e.reason.length > 0)).toBe(true);
    expect(v.drivers[0]).toMatch(/DXY|RSI/);
    expect(v.drivers.join(" ")).toMatch(/points/);
    expect(v.summary).toMatch(/BTC .* at score/);
  });

  it("macro_context follows the macro signals", () => {
    const off = evaluateJudiciary("BTC", { ...base, readings: readings({ ...NEUTRAL_BTC, US10Y: 4.5, DXY: 108 }) });
    expect(off.macroContext).toMatchObject({ assessment: "RISK_OFF", key_driver: "DXY" });
    expect(off.macroContext?.primary_risk).toMatch(/dollar/);
    const on = evaluateJudiciary("BTC", { ...base, readings: readings({ ...NEUTRAL_BTC, US10Y: 3, DXY: 95 }) });
    expect(on.macroContext?.assessment).toBe("RISK_ON");
    expect(evaluateJudiciary("BTC", { ...base, readings: [] }).macroContext).toBeNull();
  });

  it("macro_context's primary risk is what leans against risk, not the key driver when it leans for it", () => {
    // A weak dollar (bullish) drives; rising yields lean bearish: the risk is the yields, not "a stronger dollar".
    const mixed = evaluateJudiciary("BTC", { ...base, readings: readings({ ...NEUTRAL_BTC, DXY: 97, US10Y: 4.3 }) });
    expect(mixed.macroContext).toMatchObject({ assessment: "NEUTRAL", key_driver: "DXY" });
    expect(mixed.macroContext?.primary_risk).toMatch(/Treasury yields/);
    expect(mixed.macroContext?.primary_risk).not.toMatch(/dollar/);
  });

  it("verdict.new data carries ruling, composite_score, confidence, regime", () => {
    const v = evaluateJudiciary("BTC", { ...base, readings: readings(BULLISH_BTC) });
    expect(verdictNewData(v)).toEqual({ ruling: "STRONG_BUY", composite_score: 81, confidence: 1, regime: "BULL_TRENDING" });
    expect(verdictNewData({ ...v, regime: null }).regime).toBe("UNKNOWN");
  });
});

describe("Judiciary Engine (ETH, SOL, TAO)", () => {
  const bearishAsset = { RSI_1H: 85, RSI_4H: 85, EMA200_DISTANCE: -8, MACD_HIST: -2, REALIZED_VOL: 150, FUNDING_RATE: 0.1, BTC_RATIO_TREND: -12, DEFI_TVL_TREND: -20, US10Y: 5.5, DXY: 110, FEAR_GREED_INDEX: 95 };

  it("SOL maps bearish scores to AVOID, never SELL", () => {
    const v = evaluateJudiciary("SOL", { regime: null, price: 150, readings: readings(bearishAsset) });
    expect(v.score).toBeLessThanOrEqual(-35);
    expect(v.ruling).toBe("AVOID");
  });

  it("TAO and ETH use the BTC scale", () => {
    expect(evaluateJudiciary("TAO", { regime: null, price: 400, readings: readings(bearishAsset) }).ruling).toBe("STRONG_SELL");
    expect(evaluateJudiciary("ETH", { regime: null, price: 3000, readings: readings(bearishAsset) }).ruling).toBe("STRONG_SELL");
  });

  it("reads asset features plus shared macro/sentiment; DeFi TVL only for SOL; ignores BTC-only signals", () => {
    const v = evaluateJudiciary("ETH", { regime: null, price: 3000, readings: readings({ ...bearishAsset, BTC_RSI: 10 }) });
    const keys = v.evidence.map((e) => e.key);
    expect(keys).toContain("RSI_1H");
    expect(keys).toContain("DXY");
    expect(keys).not.toContain("DEFI_TVL_TREND");
    expect(keys).not.toContain("BTC_RSI");
    expect(evaluateJudiciary("SOL", { regime: null, price: 150, readings: [] }).evidence.map((e) => e.key)).toContain("DEFI_TVL_TREND");
  });
});
