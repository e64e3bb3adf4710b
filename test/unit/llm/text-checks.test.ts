import { describe, expect, it } from "vitest";
import { repeatsItself } from "../../../src/llm/text-checks.js";

/** Theses SmolLM2-135M wrote through llama-server with the vote's schema enforced (2026-12-04). */
const LOOPED = [
  "The market regime of the US dollar is uncertain, and the market is uncertain about the direction of the market. The market is uncertain about the direction of the market, and the market is uncertain about the direction of the market, and the market is uncertain about the direction of the market, and the market",
  "The market regime is unknown. The market is bullish. The market is bearish. The market is neutral. The market is bullish. The market is bearish. The market is bullish. The market is bearish. The market is bullish. The market is bullish. The market is bearish. The market",
  `2026-03-23T07:00:00${".120Z".repeat(40)}`,
  `1.${"0".repeat(180)}`,
  // Short loops after a clause of sense: over half their four-word runs are distinct (0.50, 0.53).
  "The market regime is uncertain; the market is uncertain; the market is uncertain; the market is uncertain",
  "2026-03-23T07:47:24.900Z. 2026-03-23T07:47:24.900Z. 2026-03-23T07:47:24.900Z. 2026-03-23T07:47:24.900Z. 2026-03-23T07:47:24.900Z.",
  `);}  ${"# 2026-03-23T08:35:38.700Z.  ".repeat(6)}# 202`,
];
/** Short fields of figures or punctuation are not loops (whether they say anything is another question). */
const SHORT = ["][", "1.000000", "[", "][0]["];
/** Prose a trader could read, including figures and a repeated asset name. */
const PROSE = [
  "MVRV ZSCORE = 0.4396 (LIVE), rule of thumb: MVRV Z-Score 0.44: bullish; rule: below 0 undervalued (bullish), above 7 overbought (bearish), neutral at 3",
  "BTC funding is neutral and BTC open interest is flat, while BTC spot volume rose 12% on the day. Exchange outflows continue, which has preceded BTC strength before. Risk is a Fed surprise on Wednesday.",
  "The market is bullish. The market is bullish.",
  "Up.",
  // Parallel prose: the same phrase for each asset is not a loop.
  "BTC is above its 200-day average and ETH is above its 200-day average; SOL is above its 200-day average.",
  "Very, very, very strong flows into spot ETFs this week.",
  "Funding 0.0100% is neutral; a 1000000 BTC wall is not in the book. Volume ratio 1.11 — calm.",
];

describe("text a model wrote in a loop", () => {
  it("flags the looping replies seen and passes prose, figures and a repeated name", () => {
    for (const t of LOOPED) expect(repeatsItself(t), t.slice(0, 40)).toBe(true);
    for (const t of [...PROSE, ...SHORT]) expect(repeatsItself(t), t.slice(0, 40)).toBe(false);
    // Deep indentation is layout, not a loop.
    expect(repeatsItself(`{\n${" ".repeat(40)}"thesis": "Flows lead."\n}`)).toBe(false);
  });
});
