import { directionOf, type Direction } from "../judiciary/score-bands.js";
import type { AgentVote, ConsensusDirection, ConsensusLevel } from "./council-types.js";

export interface Consensus {
  readonly direction: ConsensusDirection;
  readonly level: ConsensusLevel;
  /** Share of the counted agents' weight on the leading direction, 0..1. */
  readonly share: number;
  readonly leading: Direction;
}

/**
 * DECISIONS 4 consensus over weighted votes: UNANIMOUS when every counted agent is on one side,
 * STRONG at ≥ 80% of the weight, MODERATE at ≥ 60%, else SPLIT. The direction is the leading
 * side unless the level is SPLIT. Ties between sides go to NEUTRAL, then BEARISH: when the
 * council cannot agree, the cautious reading wins.
 */
export function consensusOf(votes: readonly { vote: AgentVote; weight: number }[]): Consensus {
  const totals: Record<Direction, number> = { BULLISH: 0, BEARISH: 0, NEUTRAL: 0 };
  let sum = 0;
  for (const { vote, weight } of votes) {
    totals[directionOf(vote.ruling)] += weight;
    sum += weight;
  }
  if (sum === 0) return { direction: "NEUTRAL", level: "SPLIT", share: 0, leading: "NEUTRAL" };
  const order: Direction[] = ["NEUTRAL", "BEARISH", "BULLISH"];
  let leading: Direction = "NEUTRAL";
  for (const d of order) if (totals[d] > totals[leading] + 1e-12) leading = d;
  const share = totals[leading] / sum;
  const level: ConsensusLevel = share >= 1 - 1e-9 ? "UNANIMOUS" : share >= 0.8 - 1e-9 ? "STRONG" : share >= 0.6 - 1e-9 ? "MODERATE" : "SPLIT";
  return { direction: level === "SPLIT" ? "SPLIT" : leading, level, share, leading };
}
