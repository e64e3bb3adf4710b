import { describe, expect, it } from "vitest";
import { AdvisorError, type AgentBrief, type CouncilAdvisor, type ModelVote } from "../../../src/domain/council/advisor-port.js";
import type { CallBudget } from "../../../src/domain/council/call-budget.js";
import { councilNewData } from "../../../src/domain/council/council-event.js";
import { deliberate, type DeliberationOutcome } from "../../../src/domain/council/deliberate.js";
import type { CouncilSession } from "../../../src/domain/council/council-types.js";
import { councilGatePasses } from "../../../src/domain/council/entry-gate.js";
import { JUDICIARY_BASELINE_CONFIDENCE } from "../../../src/domain/council/rule-agent.js";
import { councilInput } from "./fixtures.js";

let n = 0;
const newId = () => `session-${++n}`;

function session(o: DeliberationOutcome): CouncilSession {
  if (o.kind !== "session") throw new Error("expected a session");
  return o.session;
}

class ScriptedAdvisor implements CouncilAdvisor {
  readonly asked: string[] = [];
  chiefCalls = 0;
  constructor(private readonly answer: (brief: AgentBrief) => ModelVote | AdvisorError) {}
  async agentVote(brief: AgentBrief, budget: CallBudget): Promise<ModelVote> {
    this.asked.push(brief.agent.name);
    if (!budget.tryTake()) throw new AdvisorError("budget", "spent");
    const a = this.answer(brief);
    if (a instanceof AdvisorError) throw a;
    return a;
  }
  async chiefSummary(_p: unknown, budget: CallBudget) {
    this.chiefCalls++;
    if (!budget.tryTake()) throw new AdvisorError("budget", "spent");
    return { rationale: "model rationale", explanation: "Model says buy. Two sentences." };
  }
}

describe("deliberate: judiciary mode (no provider)", () => {
  it.each(["BTC", "TAO", "SOL"] as const)("%s: a complete rule-based session at reduced confidence", async (asset) => {
    const s = session(await deliberate(councilInput(asset), { advisor: null, newId }));
    expect(s.mode).toBe("judiciary");
    expect(s.id).toMatch(/^session-/);
    expect(s.votes).toHaveLength(6);
    expect(s.votes.every((v) => v.source === "rule" || v.source === "abstain")).toBe(true);
    expect(s.votes.every((v) => v.confidence <= JUDICIARY_BASELINE_CONFIDENCE)).toBe(true);
    expect(s.confidence).toBeLessThanOrEqual(JUDICIARY_BASELINE_CONFIDENCE);
    expect(s.agentsSucceeded + s.agentsFailed).toBe(6);
    expect(s.explanationSource).toBe("template");
    expect(s.plainExplanation).toMatch(/rule-based fallback/);
    expect(s.plainExplanation.split(". ").length).toBeGreaterThanOrEqual(2);
    expect(s.votes.every((v) => v.thesis.length > 0)).toBe(true);
  });

  it("BTC bullish picture: bullish rule votes with readable theses", async () => {
    const s = session(await deliberate(councilInput("BTC"), { advisor: null, newId }));
    expect(["STRONG_BUY", "BUY", "ACCUMULATE"]).toContain(s.ruling);
    const hawk = s.votes.find((v) => v.agent === "TECH HAWK");
    expect(hawk?.thesis).toMatch(/TECH HAWK \(rules\): score \+/);
    expect(hawk?.thesis).toMatch(/RSI/);
  });

  it("agents whose inputs are all DEAD abstain: HOLD ≤ 0.3, naming the missing data; TAO raises INSUFFICIENT_DATA", async () => {
    const s = session(await deliberate(councilInput("TAO"), { advisor: null, newId }));
    const subnet = s.votes.find((v) => v.agent === "SUBNET_ORACLE");
    expect(subnet).toMatchObject({ ruling: "HOLD", source: "abstain" });
    expect(subnet?.confidence).toBeLessThanOrEqual(0.3);
    expect(subnet?.thesis).toMatch(/TAO_STAKING_RATIO_TREND/);
    expect(s.votes.find((v) => v.agent === "AI_NARRATIVE")?.source).toBe("abstain");
    expect(s.agentsFailed).toBe(2);
    expect(s.riskFlags).toContain("INSUFFICIENT_DATA");
    expect(s.snapshotSignals).toEqual({ tao_price: 400, rsi_1h: 35, ema_200: 388 });
  });

  it("with no data at all every agent abstains, TAO flags INSUFFICIENT_DATA, ruling HOLD", async () => {
    const s = session(await deliberate(councilInput("TAO", { readings: [] }), { advisor: null, newId }));
    expect(s.votes.every((v) => v.source === "abstain")).toBe(true);
    expect(s.ruling).toBe("HOLD");
    expect(s.confidence).toBe(0);
    expect(s.riskFlags).toContain("INSUFFICIENT_DATA");
  });

  it("TAO LIQUIDITY_RISK makes the session AVOID", async () => {
    const input = councilInput("TAO");
    const s = session(await deliberate({ ...input, tao: { liquidityStatus: "INSUFFICIENT", lastHourRangePct: 1, volumeRatio: 1, aiSentiment: null } }, { advisor: null, newId }));
    expect(s.riskFlags).toContain("LIQUIDITY_RISK");
    expect(s.ruling).toBe("AVOID");
  });

  it("is deterministic for the same input and id", async () => {
    const a = session(await deliberate(councilInput("SOL"), { advisor: null, newId: () => "x" }));
    const b = session(await deliberate(councilInput("SOL"), { advisor: null, newId: () => "x" }));
    expect(a).toEqual(b);
  });
});

describe("deliberate: BLACKOUT", () => {
  it.each(["BTC", "TAO", "SOL"] as const)("%s pauses for the day, asking nobody", async (asset) => {
    const advisor = new ScriptedAdvisor(() => ({ ruling: "BUY", confidence: 0.9, thesis: "t" }));
    const o = await deliberate(councilInput(asset, { calendar: { status: "BLACKOUT", hoursUntilTier1: 3 } }), { advisor, newId });
    expect(o.kind).toBe("paused");
    expect(advisor.asked).toEqual([]);
  });

  it("WARNING does not pause", async () => {
    const o = await deliberate(councilInput("BTC", { calendar: { status: "WARNING", hoursUntilTier1: 20 } }), { advisor: null, newId });
    expect(o.kind).toBe("session");
  });
});

describe("deliberate: council mode with a model", () => {
  it("all agents answer: council session with model votes and the model's explanation", async () => {
    const advisor = new ScriptedAdvisor(() => ({ ruling: "BUY", confidence: 0.8, thesis: "Momentum is strong." }));
    const s = session(await deliberate(councilInput("BTC"), { advisor, newId }));
    expect(s).toMatchObject({ mode: "council", ruling: "BUY", confidence: 0.8, consensusLevel: "UNANIMOUS", agentsSucceeded: 6, agentsFailed: 0, explanationSource: "model" });
    expect(s.plainExplanation).toBe("Model says buy. Two sentences.");
    expect(councilGatePasses(s)).toBe(true);
    expect(councilNewData(s)).toEqual({ asset: "BTC", ruling: "BUY", confidence: 0.8, consensus_level: "UNANIMOUS", agents_succeeded: 6 });
  });

  it("abstaining agents are not sent to the model", async () => {
    const advisor = new ScriptedAdvisor(() => ({ ruling: "BUY", confidence: 0.8, thesis: "t" }));
    await deliberate(councilInput("TAO"), { advisor, newId });
    expect(advisor.asked).not.toContain("SUBNET_ORACLE");
    expect(advisor.asked).not.toContain("AI_NARRATIVE");
    expect(advisor.asked).toHaveLength(4);
  });

  it("a provider that is down: asked once, then a clean judiciary fallback", async () => {
    const advisor = new ScriptedAdvisor(() => new AdvisorError("unavailable", "timeout"));
    const s = session(await deliberate(councilInput("SOL"), { advisor, newId }));
    expect(advisor.asked).toHaveLength(1);
    expect(s.mode).toBe("judiciary");
    expect(s.votes.every((v) => v.source !== "model")).toBe(true);
    expect(advisor.chiefCalls).toBe(0);
    expect(s.explanationSource).toBe("template");
  });

  it("one malformed reply: only that agent falls back to its rule", async () => {
    const advisor = new ScriptedAdvisor((b) => (b.agent.name === "TECH HAWK" ? new AdvisorError("invalid_reply", "bad json") : { ruling: "ACCUMULATE", confidence: 0.7, thesis: "t" }));
    const s = session(await deliberate(councilInput("BTC"), { advisor, newId }));
    expect(s.mode).toBe("council");
    expect(s.votes.find((v) => v.agent === "TECH HAWK")?.source).toBe("rule");
    expect(s.agentsSucceeded).toBe(5);
    expect(s.agentsFailed).toBe(1);
  });

  it("the call budget bounds the session; agents past it vote by rule", async () => {
    const advisor = new ScriptedAdvisor(() => ({ ruling: "BUY", confidence: 0.8, thesis: "t" }));
    const s = session(await deliberate(councilInput("BTC"), { advisor, newId, callsPerSession: 3 }));
    expect(s.votes.filter((v) => v.source === "model")).toHaveLength(3);
    expect(s.votes.filter((v) => v.source === "rule")).toHaveLength(3);
    expect(advisor.asked).toHaveLength(4);
    expect(s.explanationSource).toBe("template");
  });

  it("the SOL veto holds whatever the other agents say, in code", async () => {
    const advisor = new ScriptedAdvisor((b) => (b.agent.name === "RISK_WARDEN" ? { ruling: "AVOID", confidence: 0.85, thesis: "Exploit reported." } : { ruling: "STRONG_BUY", confidence: 0.95, thesis: "t" }));
    const s = session(await deliberate(councilInput("SOL"), { advisor, newId }));
    expect(s.ruling).toBe("AVOID");
    expect(s.vetoedBy).toEqual(["RISK_WARDEN"]);
    expect(councilGatePasses(s)).toBe(false);
  });
});

describe("entry thresholds", () => {
  it("TAO 0.72, SOL 0.65, BTC 0.65, bullish rulings only", () => {
    expect(councilGatePasses({ asset: "TAO", ruling: "BUY", confidence: 0.72 })).toBe(true);
    expect(councilGatePasses({ asset: "TAO", ruling: "BUY", confidence: 0.71 })).toBe(false);
    expect(councilGatePasses({ asset: "SOL", ruling: "ACCUMULATE", confidence: 0.65 })).toBe(true);
    expect(councilGatePasses({ asset: "SOL", ruling: "ACCUMULATE", confidence: 0.64 })).toBe(false);
    expect(councilGatePasses({ asset: "BTC", ruling: "STRONG_BUY", confidence: 0.65 })).toBe(true);
    expect(councilGatePasses({ asset: "BTC", ruling: "HOLD", confidence: 0.99 })).toBe(false);
  });
});

describe("deliberate: never a half session", () => {
  it("a failing Chief Judge call keeps the model votes and uses the template explanation", async () => {
    const advisor: CouncilAdvisor = {
      agentVote: async () => ({ ruling: "BUY", confidence: 0.8, thesis: "t" }),
      chiefSummary: async () => {
        throw new AdvisorError("invalid_reply", "bad");
      },
    };
    const s = session(await deliberate(councilInput("BTC"), { advisor, newId }));
    expect(s.mode).toBe("council");
    expect(s.explanationSource).toBe("template");
    expect(s.plainExplanation).toMatch(/The BTC council rules BUY/);
  });

  it("an unexpected exception from an advisor is treated as an unavailable provider", async () => {
    let calls = 0;
    const advisor: CouncilAdvisor = {
      agentVote: async () => {
        calls++;
        throw new TypeError("boom");
      },
      chiefSummary: async () => ({ rationale: "r", explanation: "e" }),
    };
    const s = session(await deliberate(councilInput("SOL"), { advisor, newId }));
    expect(calls).toBe(1);
    expect(s.mode).toBe("judiciary");
    expect(s.votes).toHaveLength(6);
  });
});
