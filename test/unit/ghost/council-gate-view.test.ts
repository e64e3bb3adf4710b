import { describe, expect, it } from "vitest";
import { councilViewAt } from "../../../src/application/ghost-bar-source.js";
import { deliberate } from "../../../src/domain/council/deliberate.js";
import type { CouncilAsset, CouncilSession } from "../../../src/domain/council/council-types.js";
import { ASSET_RULES } from "../../../src/domain/ghost/asset-rules.js";
import { evaluateGates } from "../../../src/domain/ghost/entry-gates.js";
import { councilInput } from "../council/fixtures.js";
import { candle, passingBar } from "./bar-builder.js";

const H = 3_600_000;

/** A judiciary-mode session (no language model) as stored: rule votes, then the calibrated figure. */
async function judiciaryModeSession(asset: CouncilAsset, calibrated: number): Promise<CouncilSession> {
  const outcome = await deliberate(councilInput(asset), { advisor: null, newId: () => `session-${asset}` });
  if (outcome.kind !== "session") throw new Error("the council did not meet");
  expect(outcome.session.mode).toBe("judiciary");
  return { ...outcome.session, confidence: calibrated };
}

/** The council gate of `asset` at the session's close, the asset's own verdict bullish at 0.9. */
function councilGate(asset: CouncilAsset, session: CouncilSession) {
  const close = session.at + H;
  const bar = passingBar(candle(close - H, 1000, 1005, 995, 1000), asset, { council: councilViewAt(close, session) });
  const input = { ...bar, judiciary: bar.judiciary === null ? null : { ...bar.judiciary, ruling: "STRONG_BUY" as const, confidence: 0.9 } };
  return evaluateGates(input, ASSET_RULES[asset]);
}

describe("the council gate reads the council's own ruling and calibrated confidence (SPEC 8, DECISIONS 7)", () => {
  it("a judiciary-mode session near the base rate keeps the gate shut, however confident the asset's verdict", async () => {
    const session = await judiciaryModeSession("TAO", 0.5137);
    expect(councilViewAt(session.at + H, session)).toEqual({ ruling: session.ruling, confidence: 0.5137, sessionId: session.id });
    const g = councilGate("TAO", session);
    expect(g.council).toBe(false);
    expect(g.allowEntry).toBe(false);
    expect(g.trigger).toMatch(/^council: (ruling [A-Z_]+|calibrated confidence 0.5137 below 0.72)$/);
  });

  it("a judiciary-mode session at its threshold opens it: the mode does not matter, the figure does", async () => {
    for (const [asset, threshold] of [["TAO", 0.72], ["SOL", 0.65], ["BTC", 0.65]] as const) {
      const session = await judiciaryModeSession(asset, threshold);
      // The fixtures' bullish picture: the rule councils rule bullish on it.
      expect(["STRONG_BUY", "BUY", "ACCUMULATE"]).toContain(session.ruling);
      expect(councilGate(asset, session).council).toBe(true);
      expect(councilGate(asset, { ...session, confidence: threshold - 0.0001 }).council).toBe(false);
    }
  });

  it("a session older than an hour does not gate the bar", async () => {
    const session = await judiciaryModeSession("BTC", 0.9);
    expect(councilViewAt(session.at + H, session)?.confidence).toBe(0.9);
    expect(councilViewAt(session.at + H + 1, session)).toBeNull();
  });
});
