import { describe, expect, it } from "vitest";
import { agentReplySchema } from "../../../src/llm/reply-schemas.js";

const schema = agentReplySchema(["BUY", "HOLD", "AVOID"]);
const confidenceOf = (confidence: unknown) => {
  const read = schema.safeParse({ ruling: "AVOID", confidence, thesis: "Liquidity is thin." });
  return read.success ? read.data.confidence : "refused";
};

describe("an agent's confidence in the scale the model wrote it", () => {
  it("reads a figure with a % sign as a percentage, whatever its size", () => {
    // "0.9%" read as 0.9 once gave a RISK_WARDEN's AVOID at under 1 % the force of a veto.
    expect(confidenceOf("0.9%")).toBeCloseTo(0.009, 6);
    expect(confidenceOf("72%")).toBeCloseTo(0.72, 6);
    expect(confidenceOf(" 100 % ")).toBe(1);
  });

  it("reads bare numbers 0..1 as they are and 2..100 as percent; refuses the ambiguous 1..2", () => {
    expect(confidenceOf(0.9)).toBe(0.9);
    expect(confidenceOf("0.65")).toBe(0.65);
    expect(confidenceOf(72)).toBeCloseTo(0.72, 6);
    expect(confidenceOf(1.5)).toBe("refused");
    expect(confidenceOf("150%")).toBe("refused");
  });
});
