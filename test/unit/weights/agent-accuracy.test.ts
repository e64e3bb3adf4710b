import { describe, expect, it } from "vitest";
import { agentPerformance, voteDirection } from "../../../src/domain/weights/agent-accuracy.js";
import { D0, DAY, trade } from "../ghost/ledger-fixture.js";

describe("agent accuracy (SPEC grading rules)", () => {
  const win = trade({ exit: 110, entryTime: D0, holdHours: 5, triggerId: "s1" });
  const loss = trade({ exit: 95, entryTime: D0 + DAY, holdHours: 5, triggerId: "s2" });
  const orphan = trade({ exit: 110, entryTime: D0 + 2 * DAY, holdHours: 5, triggerId: "missing" });
  const eth = trade({ asset: "ETH", exit: 110, entryTime: D0, holdHours: 5, triggerId: "s1" });
  const sessions = [
    {
      sessionId: "s1",
      votes: [
        { agent: "TECH HAWK", vote: "BUY" },
        { agent: "MACRO SAGE", vote: "SELL" },
        { agent: "RISK SHIELD", vote: "HOLD" },
        { agent: "CHAIN ORACLE", vote: "REDUCE" },
      ],
    },
    {
      sessionId: "s2",
      votes: [
        { agent: "TECH HAWK", vote: "STRONG_BUY" },
        { agent: "MACRO SAGE", vote: "STRONG_SELL" },
        { agent: "RISK SHIELD", vote: "HOLD" },
      ],
    },
  ];

  it("grades directional votes against the trade outcome; omits agents without any", () => {
    const p = agentPerformance([win, loss, orphan, eth], sessions);
    expect(p.asset).toBe("BTC");
    expect(p.trades_analyzed).toBe(2);
    expect(p.agents).toEqual([
      { agent_name: "MACRO SAGE", correct_calls: 1, total_calls: 2, accuracy_pct: 50, last_updated: new Date(loss.exitTime).toISOString() },
      { agent_name: "TECH HAWK", correct_calls: 1, total_calls: 2, accuracy_pct: 50, last_updated: new Date(loss.exitTime).toISOString() },
    ]);
  });

  it("accuracy has one decimal", () => {
    const three = [0, 1, 2].map((i) => trade({ exit: i === 0 ? 95 : 110, entryTime: D0 + i * DAY, holdHours: 1, triggerId: `x${i}` }));
    const p = agentPerformance(three, three.map((t, i) => ({ sessionId: `x${i}`, votes: [{ agent: "TECH HAWK", vote: "BUY" }] })));
    expect(p.agents[0]).toMatchObject({ correct_calls: 2, total_calls: 3, accuracy_pct: 66.7 });
  });

  it("directions: bullish and bearish rulings; everything else is not graded", () => {
    expect(["STRONG_BUY", "BUY", "ACCUMULATE", "BULLISH"].map(voteDirection)).toEqual(["BULLISH", "BULLISH", "BULLISH", "BULLISH"]);
    expect(["SELL", "STRONG_SELL", "BEARISH"].map(voteDirection)).toEqual(["BEARISH", "BEARISH", "BEARISH"]);
    expect(["HOLD", "NEUTRAL", "REDUCE", "AVOID", "PROCEED", "WAIT"].map(voteDirection)).toEqual([null, null, null, null, null, null]);
  });

  it("no matched trades: zero analysed and no agents", () => {
    expect(agentPerformance([], sessions)).toEqual({ asset: "BTC", trades_analyzed: 0, agents: [] });
  });
});
