import { describe, expect, it } from "vitest";
import { agentReplySchema, chiefReplySchema } from "../../../src/llm/reply-schemas.js";

/**
 * Schema-valid replies SmolLM2-135M wrote through llama-server (2026-12-04): the JSON was right,
 * the text a trader would read as the agent's reasoning was not.
 */
const WORDLESS = ["][", "1.000000", "[", "][0][", "0.85 / 0.15 — 3%", "LIVE", "BUY", "TRUE", "Up."];
const LOOPED = [
  "The market is bullish. The market is bearish. The market is bullish. The market is bearish. The market is bullish. The market is bearish. The market",
  `1.${"0".repeat(180)}`,
  "The market regime is uncertain; the market is uncertain; the market is uncertain; the market is uncertain",
];
const READABLE = ["Funding squeeze.", "Trend up.", "MVRV Z-Score 0.44: undervalued, bullish.", "BTC funding is neutral and exchange outflows continue, which has preceded strength before."];

const vote = agentReplySchema(["BUY", "HOLD", "AVOID"]);
/** Every reason a thesis is refused (none when it is accepted). */
const thesisProblems = (thesis: string): string[] => vote.safeParse({ ruling: "HOLD", confidence: 0.6, thesis }).error?.issues.map((i) => i.message) ?? [];

describe("the text a model writes for traders to read", () => {
  it("a thesis of only figures, punctuation or a single word is refused, and says why", () => {
    for (const t of WORDLESS) expect(thesisProblems(t), t).toEqual(["thesis must give a reason in words (two or more), not a label, figures or punctuation"]);
  });

  it("a thesis that goes round in a loop is refused, and says why", () => {
    // "1.000…" is wordless as well, and both reasons are given.
    for (const t of LOOPED) expect(thesisProblems(t), t.slice(0, 30)).toContain("thesis must not repeat itself in a loop");
  });

  it("terse or figure-laden prose is accepted as written", () => {
    for (const t of READABLE) expect(vote.parse({ ruling: "BUY", confidence: 0.7, thesis: t }).thesis).toBe(t);
  });

  it("the Chief Judge's rationale and explanation are held to the same rule", () => {
    const chief = chiefReplySchema("HOLD");
    const ok = { rationale: "Votes split between trend and flows.", explanation: "The council rules HOLD. Trend and flows disagree." };
    expect(chief.safeParse(ok).success).toBe(true);
    const wordless = chief.safeParse({ ...ok, rationale: "][" });
    expect(wordless.error?.issues.map((i) => i.message)).toEqual(["rationale must give a reason in words (two or more), not a label, figures or punctuation"]);
    const looped = chief.safeParse({ ...ok, explanation: `HOLD. ${"The market is flat. ".repeat(6)}` });
    expect(looped.error?.issues.map((i) => i.message)).toContain("explanation must not repeat itself in a loop");
  });
});
