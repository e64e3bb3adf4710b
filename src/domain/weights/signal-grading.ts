import type { Regime } from "../market/vocabulary.js";
import type { SignalKey } from "../signals/signal-keys.js";
import type { ClosedTrade } from "../ghost/trade.js";

/**
 * A signal's call on one trade. Its direction is the sign of its contribution at entry; readings
 * inside the neutral band (|contribution| < 0.05) made no call and are not graded. Only the sign
 * counts, which normalises signals whose contributions live on different scales.
 * Every Ghost trade is LONG: a win means price went the bullish way, a loss the bearish way.
 */
export const NEUTRAL_BAND = 0.05;

export interface SignalGrade {
  readonly key: SignalKey;
  readonly regime: Regime;
  readonly correct: boolean;
  readonly exitTime: number;
}

export function gradeTrade(trade: ClosedTrade): SignalGrade[] {
  if (trade.regimeAtEntry === null) return [];
  const rose = trade.pnlUsd > 0;
  const grades: SignalGrade[] = [];
  for (const s of trade.signalsAtEntry) {
    if (!Number.isFinite(s.contribution) || Math.abs(s.contribution) < NEUTRAL_BAND) continue;
    grades.push({ key: s.key, regime: trade.regimeAtEntry, correct: s.contribution > 0 === rose, exitTime: trade.exitTime });
  }
  return grades;
}
