import type { Ruling, SolRuling, TaoRuling } from "../market/vocabulary.js";

/**
 * Score bands of DECISIONS 4: the composite score in [-100, 100] maps to a ruling. Lower bounds
 * of the bullish bands are inclusive (≥ 60, ≥ 35, ≥ 15); the bearish bands are strict (> -15,
 * > -35, > -60) so that exactly -15 is REDUCE and exactly -60 is STRONG_SELL.
 */
export function rulingForScore(score: number): Ruling {
  // Not a number is no evidence either way (every comparison below would fail into STRONG_SELL).
  if (Number.isNaN(score)) return "HOLD";
  if (score >= 60) return "STRONG_BUY";
  if (score >= 35) return "BUY";
  if (score >= 15) return "ACCUMULATE";
  if (score > -15) return "HOLD";
  if (score > -35) return "REDUCE";
  if (score > -60) return "SELL";
  return "STRONG_SELL";
}

/** DECISIONS 7: SOL uses the same bands; at or below -35 it is AVOID (SOL never says SELL). */
export function solRulingForScore(score: number): SolRuling {
  const ruling = rulingForScore(score);
  return ruling === "SELL" || ruling === "STRONG_SELL" ? "AVOID" : ruling;
}

/**
 * A representative score per ruling, used when votes (rulings) are averaged back into a score.
 * Mid-points of the bands; the open-ended bands take ±80. AVOID sits with SELL: "stay out" is
 * a bearish stance for the average, and the veto rule handles its stronger meaning separately.
 */
export const RULING_SCORE: Readonly<Record<TaoRuling, number>> = {
  STRONG_BUY: 80,
  BUY: 47.5,
  ACCUMULATE: 25,
  HOLD: 0,
  REDUCE: -25,
  SELL: -47.5,
  STRONG_SELL: -80,
  AVOID: -47.5,
};

export type Direction = "BULLISH" | "BEARISH" | "NEUTRAL";

/**
 * Side of a ruling for consensus. Unlike grading (DECISIONS 4 leaves REDUCE and AVOID
 * ungraded), consensus needs every vote on a side: REDUCE and AVOID both lean out of the
 * market, so they count as BEARISH here.
 */
export function directionOf(ruling: TaoRuling): Direction {
  const s = RULING_SCORE[ruling];
  return s > 0 ? "BULLISH" : s < 0 ? "BEARISH" : "NEUTRAL";
}
