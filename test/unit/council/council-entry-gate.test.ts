import { describe, expect, it } from "vitest";
import { councilGateDecision } from "../../../src/domain/council/entry-gate.js";

describe("council gate with the judiciary-mode rule", () => {
  it("a council-mode session decides by its own ruling and threshold", () => {
    expect(councilGateDecision({ asset: "BTC", mode: "council", ruling: "BUY", confidence: 0.66 }, null)).toEqual({
      passes: true,
      decidedBy: "council",
      ruling: "BUY",
      confidence: 0.66,
    });
    // The verdict is ignored in council mode, however bullish.
    expect(councilGateDecision({ asset: "TAO", mode: "council", ruling: "BUY", confidence: 0.71 }, { ruling: "STRONG_BUY", confidence: 0.9 }).passes).toBe(false);
  });

  it("a judiciary-mode session (confidence capped at 0.47) lets the asset's judiciary verdict decide", () => {
    const session = { asset: "BTC", mode: "judiciary", ruling: "BUY", confidence: 0.47 } as const;
    expect(councilGateDecision(session, { ruling: "ACCUMULATE", confidence: 0.65 })).toEqual({
      passes: true,
      decidedBy: "judiciary",
      ruling: "ACCUMULATE",
      confidence: 0.65,
    });
    expect(councilGateDecision(session, { ruling: "ACCUMULATE", confidence: 0.64 }).passes).toBe(false);
    expect(councilGateDecision(session, { ruling: "HOLD", confidence: 0.9 }).passes).toBe(false);
    expect(councilGateDecision(session, null)).toEqual({ passes: false, decidedBy: "judiciary", ruling: null, confidence: null });
  });

  it("keeps each council's own threshold: TAO needs 0.72 from its verdict, SOL 0.65", () => {
    expect(councilGateDecision({ asset: "TAO", mode: "judiciary", ruling: "HOLD", confidence: 0.3 }, { ruling: "BUY", confidence: 0.71 }).passes).toBe(false);
    expect(councilGateDecision({ asset: "TAO", mode: "judiciary", ruling: "HOLD", confidence: 0.3 }, { ruling: "BUY", confidence: 0.72 }).passes).toBe(true);
    expect(councilGateDecision({ asset: "SOL", mode: "judiciary", ruling: "HOLD", confidence: 0.3 }, { ruling: "BUY", confidence: 0.65 }).passes).toBe(true);
  });
});
