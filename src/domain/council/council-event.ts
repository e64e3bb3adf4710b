import type { CouncilSession } from "./council-types.js";

/** `council.new` data: SPEC's fields plus `asset` (DECISIONS 7). */
export interface CouncilNewData {
  readonly asset: string;
  readonly ruling: string;
  readonly confidence: number;
  readonly consensus_level: string;
  readonly agents_succeeded: number;
}

export function councilNewData(s: CouncilSession): CouncilNewData {
  return { asset: s.asset, ruling: s.ruling, confidence: s.confidence, consensus_level: s.consensusLevel, agents_succeeded: s.agentsSucceeded };
}
