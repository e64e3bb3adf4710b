import { roundTo } from "../numbers/round-to.js";
import type { ClosedTrade } from "../ghost/trade.js";

/** One agent's vote in a stored council session, as the council records it. */
export interface AgentVote {
  readonly agent: string;
  /** Ruling or direction word; anything but the directional words below is not graded. */
  readonly vote: string;
}

export interface CouncilSessionVotes {
  readonly sessionId: string;
  readonly votes: readonly AgentVote[];
}

export interface AgentAccuracy {
  readonly agent_name: string;
  readonly correct_calls: number;
  readonly total_calls: number;
  readonly accuracy_pct: number;
  readonly last_updated: string | null;
}

export interface AgentPerformance {
  readonly asset: "BTC";
  readonly trades_analyzed: number;
  readonly agents: readonly AgentAccuracy[];
}

const BULLISH = new Set(["BULLISH", "STRONG_BUY", "BUY", "ACCUMULATE"]);
const BEARISH = new Set(["BEARISH", "SELL", "STRONG_SELL"]);

/** DECISIONS 4 directions; HOLD/NEUTRAL, REDUCE, AVOID, PROCEED, WAIT are non-directional (null). */
export function voteDirection(vote: string): "BULLISH" | "BEARISH" | null {
  if (BULLISH.has(vote)) return "BULLISH";
  if (BEARISH.has(vote)) return "BEARISH";
  return null;
}

/**
 * SPEC "Agent performance" grading: each closed BTC trade is matched to the council session that
 * triggered it (its trigger id); trades entered on a judiciary verdict, or whose session is not
 * stored, are not analysed. All Ghost trades are LONG: a win means price rose (BULLISH was
 * right), a loss that it fell (BEARISH was right). Agents without a directional vote are omitted.
 * Sorted by accuracy, then calls, then name, so the order is stable.
 */
export function agentPerformance(trades: readonly ClosedTrade[], sessions: readonly CouncilSessionVotes[]): AgentPerformance {
  const byId = new Map(sessions.map((s) => [s.sessionId, s]));
  const tally = new Map<string, { correct: number; total: number; last: number }>();
  let analysed = 0;
  for (const t of trades) {
    if (t.asset !== "BTC" || t.triggerKind !== "council" || t.triggerId === null) continue;
    const session = byId.get(t.triggerId);
    if (session === undefined) continue;
    analysed += 1;
    const outcome = t.pnlUsd > 0 ? "BULLISH" : "BEARISH";
    for (const v of session.votes) {
      const dir = voteDirection(v.vote);
      if (dir === null) continue;
      const a = tally.get(v.agent) ?? { correct: 0, total: 0, last: Number.NEGATIVE_INFINITY };
      tally.set(v.agent, {
        correct: a.correct + (dir === outcome ? 1 : 0),
        total: a.total + 1,
        last: Math.max(a.last, t.exitTime),
      });
    }
  }
  const agents: AgentAccuracy[] = [...tally.entries()].map(([agent_name, a]) => ({
    agent_name,
    correct_calls: a.correct,
    total_calls: a.total,
    accuracy_pct: roundTo((a.correct / a.total) * 100, 1),
    last_updated: Number.isFinite(a.last) ? new Date(a.last).toISOString() : null,
  }));
  agents.sort((x, y) => y.accuracy_pct - x.accuracy_pct || y.total_calls - x.total_calls || x.agent_name.localeCompare(y.agent_name));
  return { asset: "BTC", trades_analyzed: analysed, agents };
}
