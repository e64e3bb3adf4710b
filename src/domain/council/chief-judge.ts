import type { TaoRuling } from "../market/vocabulary.js";
import { RULING_SCORE, rulingForScore, solRulingForScore } from "../judiciary/score-bands.js";
import { consensusOf, type Consensus } from "./consensus.js";
import type { AgentVote, CouncilRoster } from "./council-types.js";
import type { TaoRiskFlag } from "./tao-risk-flags.js";

/** Above this confidence an AVOID from a veto agent decides the session (SPEC, SOL veto rule). */
export const VETO_CONFIDENCE = 0.7;

export interface Judgement {
  readonly ruling: TaoRuling;
  readonly confidence: number;
  readonly score: number;
  readonly consensus: Consensus;
  readonly vetoedBy: readonly string[];
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

/**
 * The Chief Judge, in code: weighted votes become a score, the score a ruling by the bands, and
 * the veto and TAO liquidity rule are applied deterministically, never by a model.
 *
 * - Counted agents: all but those that abstained for lack of data (they have no view). If all
 *   abstained nobody is counted: score 0 (HOLD), consensus SPLIT with no share, confidence 0. Counting the
 *   abstentions as votes had announced a session without any information as UNANIMOUS.
 * - score = Σ wᵢ·cᵢ·sᵢ / Σ wᵢ·cᵢ, sᵢ the ruling's band mid-point: confident agents pull harder.
 * - confidence = base × (0.5 + 0.5 × consensus share) × participation, where base is the
 *   agents' weighted mean confidence Σ wᵢ·cᵢ / Σ wᵢ (council mode) or the judiciary baseline
 *   0.47 (judiciary mode: rule votes carry no conviction of their own, so SPEC's "baseline
 *   confidence about 47%" is the ceiling a unanimous, fully-informed fallback session reaches),
 *   and participation is the counted share of the roster's weight. Unanimity keeps the base; a
 *   split can halve it; abstentions lower it further.
 * - Veto (SOL, TAO): a veto agent voting AVOID with confidence > 0.7 makes the ruling AVOID at
 *   the highest such confidence. TAO: LIQUIDITY_RISK also makes it AVOID (DECISIONS 7).
 */
export function judge(
  roster: CouncilRoster,
  votes: readonly AgentVote[],
  riskFlags: readonly TaoRiskFlag[] = [],
  baselineConfidence: number | null = null,
): Judgement {
  const weighted = votes.map((vote) => {
    const agent = roster.agents.find((a) => a.name === vote.agent);
    return { vote, weight: agent?.weight ?? 0, veto: agent?.veto ?? false };
  });
  const counted = weighted.filter((w) => w.vote.source !== "abstain");

  let sumW = 0;
  let sumWC = 0;
  let sumWCS = 0;
  for (const { vote, weight } of counted) {
    sumW += weight;
    sumWC += weight * vote.confidence;
    sumWCS += weight * vote.confidence * RULING_SCORE[vote.ruling];
  }
  const rosterWeight = roster.agents.reduce((s, a) => s + a.weight, 0);
  const participation = rosterWeight === 0 ? 0 : counted.reduce((s, w) => s + w.weight, 0) / rosterWeight;
  const score = sumWC === 0 ? 0 : round(sumWCS / sumWC, 1);
  const consensus = consensusOf(counted);
  const base = baselineConfidence ?? (sumW === 0 ? 0 : sumWC / sumW);
  let confidence = round(base * (0.5 + 0.5 * consensus.share) * participation, 2);

  let ruling: TaoRuling = roster.asset === "SOL" ? solRulingForScore(score) : rulingForScore(score);
  const vetoes = roster.asset === "BTC" ? [] : weighted.filter((w) => w.veto && w.vote.ruling === "AVOID" && w.vote.confidence > VETO_CONFIDENCE);
  if (vetoes.length > 0) {
    ruling = "AVOID";
    confidence = Math.max(...vetoes.map((v) => v.vote.confidence));
  } else if (roster.asset === "TAO" && riskFlags.includes("LIQUIDITY_RISK")) {
    ruling = "AVOID";
  }
  return { ruling, confidence, score: Object.is(score, -0) ? 0 : score, consensus, vetoedBy: vetoes.map((v) => v.vote.agent) };
}
