import { describe, expect, it } from "vitest";
import { directionOf, rulingForScore, solRulingForScore } from "../../../src/domain/judiciary/score-bands.js";

describe("score bands (DECISIONS 4)", () => {
  it.each([
    [100, "STRONG_BUY"],
    [60, "STRONG_BUY"],
    [59.9, "BUY"],
    [35, "BUY"],
    [34.9, "ACCUMULATE"],
    [15, "ACCUMULATE"],
    [14.9, "HOLD"],
    [0, "HOLD"],
    [-14.9, "HOLD"],
    [-15, "REDUCE"],
    [-34.9, "REDUCE"],
    [-35, "SELL"],
    [-59.9, "SELL"],
    [-60, "STRONG_SELL"],
    [-100, "STRONG_SELL"],
  ] as const)("score %d is %s", (score, ruling) => {
    expect(rulingForScore(score)).toBe(ruling);
  });

  it.each([
    [60, "STRONG_BUY"],
    [35, "BUY"],
    [15, "ACCUMULATE"],
    [-14.9, "HOLD"],
    [-15, "REDUCE"],
    [-34.9, "REDUCE"],
    [-35, "AVOID"],
    [-60, "AVOID"],
    [-100, "AVOID"],
  ] as const)("SOL: score %d is %s (never SELL)", (score, ruling) => {
    expect(solRulingForScore(score)).toBe(ruling);
  });

  it("SOL never yields SELL or STRONG_SELL anywhere on the scale", () => {
    for (let s = -100; s <= 100; s += 0.5) expect(["SELL", "STRONG_SELL"]).not.toContain(solRulingForScore(s));
  });

  it("directions for consensus: REDUCE and AVOID lean bearish, HOLD neutral", () => {
    expect(directionOf("ACCUMULATE")).toBe("BULLISH");
    expect(directionOf("HOLD")).toBe("NEUTRAL");
    expect(directionOf("REDUCE")).toBe("BEARISH");
    expect(directionOf("AVOID")).toBe("BEARISH");
  });

  it("a score that is not a number rules HOLD, not STRONG_SELL (SOL: not AVOID)", () => {
    expect(rulingForScore(Number.NaN)).toBe("HOLD");
    expect(solRulingForScore(Number.NaN)).toBe("HOLD");
  });
});
