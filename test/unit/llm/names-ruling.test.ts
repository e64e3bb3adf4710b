import { describe, expect, it } from "vitest";
import { namesRuling } from "../../../src/llm/reply-schemas.js";

describe("does a Chief Judge's explanation state the ruling the code computed", () => {
  it("accepts the ruling in any spelling", () => {
    expect(namesRuling("The council rules STRONG_BUY on broad agreement.", "STRONG_BUY")).toBe(true);
    expect(namesRuling("Strong-buy: every agent agrees.", "STRONG_BUY")).toBe(true);
    expect(namesRuling("We say buy, with a tight stop.", "BUY")).toBe(true);
    expect(namesRuling("AVOID: the risk agent vetoed.", "AVOID")).toBe(true);
  });

  it("refuses an explanation that never states it", () => {
    expect(namesRuling("Load up now. There is no risk.", "AVOID")).toBe(false);
    expect(namesRuling("Buyers dominate; avoidance is unwise.", "BUY")).toBe(false);
  });

  it("does not take a stronger ruling for the one computed: 'strong buy' does not state a BUY", () => {
    expect(namesRuling("Strong buy: load up now.", "BUY")).toBe(false);
    expect(namesRuling("STRONG_SELL across the board.", "SELL")).toBe(false);
    expect(namesRuling("Not a strong buy, but a buy: momentum is fading.", "BUY")).toBe(true);
  });
});
