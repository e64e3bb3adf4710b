import { describe, expect, it } from "vitest";
import { judge } from "../../../src/domain/council/chief-judge.js";
import { ROSTERS } from "../../../src/domain/council/rosters.js";
import type { TaoRuling } from "../../../src/domain/market/vocabulary.js";
import { vote, votes } from "./fixtures.js";

describe("SOL veto (SPEC): LIQUIDITY_GUARDIAN or RISK_WARDEN AVOID with confidence > 0.7", () => {
  const options: [TaoRuling, number][] = [
    ["BUY", 0.9],
    ["AVOID", 0.7],
    ["AVOID", 0.71],
    ["AVOID", 0.95],
  ];
  for (const lg of options) {
    for (const rw of options) {
      const vetoes = [lg, rw].filter(([r, c]) => r === "AVOID" && c > 0.7).length;
      it(`LG ${lg.join("@")}, RW ${rw.join("@")} → ${vetoes > 0 ? "AVOID" : "no veto"}`, () => {
        const j = judge(ROSTERS.SOL, votes("SOL", "STRONG_BUY", 0.9, { LIQUIDITY_GUARDIAN: lg, RISK_WARDEN: rw }));
        if (vetoes > 0) {
          expect(j.ruling).toBe("AVOID");
          expect(j.vetoedBy.length).toBe(vetoes);
          expect(j.confidence).toBe(Math.max(...[lg, rw].filter(([r, c]) => r === "AVOID" && c > 0.7).map(([, c]) => c)));
        } else {
          expect(j.ruling).not.toBe("AVOID");
          expect(j.vetoedBy).toEqual([]);
        }
      });
    }
  }

  it("an AVOID from a non-veto agent, however confident, is only a vote", () => {
    const j = judge(ROSTERS.SOL, votes("SOL", "BUY", 0.8, { NETWORK_SENTINEL: ["AVOID", 0.99], MOMENTUM_HUNTER: ["AVOID", 0.99] }));
    expect(j.ruling).not.toBe("AVOID");
    expect(j.vetoedBy).toEqual([]);
  });

  it("vetoes even a unanimous-otherwise bullish council", () => {
    const j = judge(ROSTERS.SOL, votes("SOL", "STRONG_BUY", 1, { RISK_WARDEN: ["AVOID", 0.8] }));
    expect(j.ruling).toBe("AVOID");
    expect(j.vetoedBy).toEqual(["RISK_WARDEN"]);
  });

  it("TAO has the same veto (DECISIONS 7); BTC has none", () => {
    expect(judge(ROSTERS.TAO, votes("TAO", "BUY", 0.8, { LIQUIDITY_GUARDIAN: ["AVOID", 0.75] })).ruling).toBe("AVOID");
    expect(judge(ROSTERS.TAO, votes("TAO", "BUY", 0.8, { RISK_WARDEN: ["AVOID", 0.7] })).ruling).not.toBe("AVOID");
    const btc = judge(ROSTERS.BTC, votes("BTC", "BUY", 0.8, { "RISK SHIELD": ["AVOID", 0.99] }));
    expect(btc.ruling).not.toBe("AVOID");
  });

  it("TAO LIQUIDITY_RISK forces AVOID", () => {
    expect(judge(ROSTERS.TAO, votes("TAO", "STRONG_BUY", 0.9), ["LIQUIDITY_RISK"]).ruling).toBe("AVOID");
    expect(judge(ROSTERS.TAO, votes("TAO", "STRONG_BUY", 0.9), ["ETF_EVENT_WINDOW"]).ruling).toBe("STRONG_BUY");
  });
});

describe("consensus levels (DECISIONS 4)", () => {
  it("BTC equal weights: 6/6 UNANIMOUS, 5/6 STRONG, 4/6 MODERATE, 3/6 SPLIT", () => {
    const names = ROSTERS.BTC.agents.map((a) => a.name);
    const bearish = (n: number) => Object.fromEntries(names.slice(0, n).map((a) => [a, ["SELL", 0.8] as [TaoRuling, number]]));
    expect(judge(ROSTERS.BTC, votes("BTC", "BUY", 0.8)).consensus).toMatchObject({ level: "UNANIMOUS", direction: "BULLISH" });
    expect(judge(ROSTERS.BTC, votes("BTC", "BUY", 0.8, bearish(1))).consensus).toMatchObject({ level: "STRONG", direction: "BULLISH" });
    expect(judge(ROSTERS.BTC, votes("BTC", "BUY", 0.8, bearish(2))).consensus).toMatchObject({ level: "MODERATE", direction: "BULLISH" });
    expect(judge(ROSTERS.BTC, votes("BTC", "BUY", 0.8, bearish(3))).consensus).toMatchObject({ level: "SPLIT", direction: "SPLIT" });
    expect(judge(ROSTERS.BTC, votes("BTC", "SELL", 0.8, {})).consensus).toMatchObject({ level: "UNANIMOUS", direction: "BEARISH" });
  });

  it("SOL weights: exactly 80% is STRONG, exactly 60% MODERATE", () => {
    // NETWORK 0.2 + ECOSYSTEM 0.2 + MACRO 0.15 + RISK 0.15 + LIQUIDITY 0.1 = 0.8
    const strong = judge(ROSTERS.SOL, votes("SOL", "BUY", 0.6, { MOMENTUM_HUNTER: ["REDUCE", 0.6] }));
    expect(strong.consensus.level).toBe("STRONG");
    expect(strong.consensus.share).toBeCloseTo(0.8, 9);
    // NETWORK 0.2 + ECOSYSTEM 0.2 + MOMENTUM 0.2 = 0.6
    const moderate = judge(ROSTERS.SOL, votes("SOL", "BUY", 0.6, { MACRO_SAGE: ["HOLD", 0.6], RISK_WARDEN: ["HOLD", 0.6], LIQUIDITY_GUARDIAN: ["REDUCE", 0.6] }));
    expect(moderate.consensus.level).toBe("MODERATE");
  });

  it("HOLD votes are NEUTRAL; a neutral majority reads NEUTRAL", () => {
    expect(judge(ROSTERS.BTC, votes("BTC", "HOLD", 0.5)).consensus).toMatchObject({ level: "UNANIMOUS", direction: "NEUTRAL" });
  });
});

describe("council confidence and score", () => {
  it("unanimous carries more confidence than split at equal agent confidence", () => {
    const unanimous = judge(ROSTERS.BTC, votes("BTC", "BUY", 0.8));
    const strong = judge(ROSTERS.BTC, votes("BTC", "BUY", 0.8, { "TECH HAWK": ["SELL", 0.8] }));
    const split = judge(ROSTERS.BTC, votes("BTC", "BUY", 0.8, { "TECH HAWK": ["SELL", 0.8], "MACRO SAGE": ["SELL", 0.8], "RISK SHIELD": ["SELL", 0.8] }));
    expect(unanimous.confidence).toBe(0.8);
    expect(unanimous.confidence).toBeGreaterThan(strong.confidence);
    expect(strong.confidence).toBeGreaterThan(split.confidence);
  });

  it("judiciary mode: a unanimous, fully-informed session reaches the 0.47 baseline; splits and abstentions go lower", () => {
    const rule = (v: ReturnType<typeof vote>) => ({ ...v, source: "rule" as const });
    expect(judge(ROSTERS.BTC, votes("BTC", "BUY", 0.3).map(rule), [], 0.47).confidence).toBe(0.47);
    const split = judge(ROSTERS.BTC, votes("BTC", "BUY", 0.3, { "TECH HAWK": ["SELL", 0.3], "MACRO SAGE": ["SELL", 0.3], "RISK SHIELD": ["SELL", 0.3] }).map(rule), [], 0.47);
    expect(split.confidence).toBeLessThan(0.47);
    expect(split.confidence).toBeGreaterThan(0.3);
  });

  it("score is the confidence-weighted mean of vote scores and the ruling follows it by the bands", () => {
    const j = judge(ROSTERS.BTC, votes("BTC", "STRONG_BUY", 0.9));
    expect(j.score).toBe(80);
    expect(j.ruling).toBe("STRONG_BUY");
    const mixed = judge(ROSTERS.BTC, votes("BTC", "BUY", 0.5, { "TECH HAWK": ["SELL", 1] }));
    // (5·0.5·47.5 − 1·47.5) / (5·0.5 + 1) = 20.4 → ACCUMULATE
    expect(mixed.score).toBeCloseTo(20.4, 1);
    expect(mixed.ruling).toBe("ACCUMULATE");
  });

  it("abstaining agents have no view: they lower confidence, not the score", () => {
    const all = judge(ROSTERS.TAO, votes("TAO", "BUY", 0.8));
    const some = judge(ROSTERS.TAO, [
      ...votes("TAO", "BUY", 0.8).filter((v) => v.agent !== "SUBNET_ORACLE" && v.agent !== "AI_NARRATIVE"),
      vote("SUBNET_ORACLE", "HOLD", 0.2, "abstain"),
      vote("AI_NARRATIVE", "HOLD", 0.2, "abstain"),
    ]);
    expect(some.score).toBe(all.score);
    expect(some.consensus.level).toBe("UNANIMOUS");
    expect(some.confidence).toBeCloseTo((all.confidence * 4) / 6, 2);
  });

  it("a council whose every agent abstained has no consensus to announce: HOLD, SPLIT, no confidence", () => {
    const silent = ROSTERS.SOL.agents.map((a) => vote(a.name, "HOLD", 0.2, "abstain"));
    const j = judge(ROSTERS.SOL, silent);
    // Counting the abstentions as votes had announced this as a UNANIMOUS NEUTRAL council.
    expect(j.consensus.level).toBe("SPLIT");
    expect(j.consensus.share).toBe(0);
    expect([j.ruling, j.score, j.confidence]).toEqual(["HOLD", 0, 0]);
  });

  it("SOL council never rules SELL: bearish scores become AVOID", () => {
    const j = judge(ROSTERS.SOL, votes("SOL", "AVOID", 0.6));
    expect(j.ruling).toBe("AVOID");
    expect(j.vetoedBy).toEqual([]);
    for (const r of ["REDUCE", "HOLD", "BUY"] as const) expect(["SELL", "STRONG_SELL"]).not.toContain(judge(ROSTERS.SOL, votes("SOL", r, 0.6)).ruling);
  });
});
